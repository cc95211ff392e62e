import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pagingSchema } from '../../../src/contract/rules/social';
import type { AppContext } from '../../context';
import {
  listNotifications,
  markAllRead,
  markRead,
  unreadCount,
} from '../../domain/social/notifications';
import { currentUserId, requireUser } from '../../http/authenticate';
import { notFound } from '../../http/errors';

const notificationParams = z.object({
  notification_id: z.uuid({ error: 'notification_id_invalid' }),
});

/** お知らせ: a member's own notifications only; anyone else's answers 404. */
export async function notificationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const preHandler = requireUser(ctx);

  api.get(
    '/v1/notification/user_notifications',
    { preHandler, schema: { querystring: pagingSchema } },
    async (request) => {
      const { page, per_page: perPage } = request.query;
      const { items, hasMore } = await listNotifications(db, currentUserId(request), {
        page,
        perPage,
      });
      return { items, page, perPage, hasMore };
    },
  );

  // The header and the tab bar poll this every few seconds: one indexed count, no join.
  api.get('/v1/notification/user_notifications/unread/count', { preHandler }, async (request) => ({
    count: await unreadCount(db, currentUserId(request)),
  }));

  api.post(
    '/v1/notification/user_notifications/:notification_id/read',
    { preHandler, schema: { params: notificationParams } },
    async (request, reply) => {
      const found = await markRead(
        db,
        currentUserId(request),
        request.params.notification_id,
        ctx.clock.now(),
      );
      if (!found) throw notFound('notification');
      return reply.status(204).send();
    },
  );

  api.post('/v1/notification/user_notifications/read_all', { preHandler }, async (request) => ({
    marked: await markAllRead(db, currentUserId(request), ctx.clock.now()),
  }));
}
