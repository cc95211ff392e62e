import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { socialEndpoints as social } from '../../../contract/social';
import { socialDepsOf } from '../../areaDeps';
import type { AppContext } from '../../context';
import {
  listNotifications,
  markAllRead,
  markRead,
  unreadCount,
} from '../../domain/social/notifications';
import { currentUserId } from '../../http/authenticate';
import { endpointRoute } from '../../http/endpoints';
import { notFound } from '../../http/errors';

/** お知らせ: a member's own notifications only; anyone else's answers 404. */
export async function notificationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const deps = socialDepsOf(ctx);

  routes.route({
    ...endpointRoute(social.listNotifications),
    handler: async (request) => {
      const { page, per_page: perPage } = request.query;
      const { items, hasMore } = await listNotifications(deps, currentUserId(request), {
        page,
        perPage,
      });
      return { items, page, perPage, hasMore };
    },
  });

  // The header and the tab bar poll this every few seconds: one indexed count, no join.
  routes.route({
    ...endpointRoute(social.unreadCount),
    handler: async (request) => ({ count: await unreadCount(deps, currentUserId(request)) }),
  });

  routes.route({
    ...endpointRoute(social.markRead),
    handler: async (request, reply) => {
      const found = await markRead(deps, currentUserId(request), request.params.notification_id);
      if (!found) throw notFound('notification');
      return reply.status(204).send();
    },
  });

  routes.route({
    ...endpointRoute(social.markAllRead),
    handler: async (request) => ({
      marked: await markAllRead(deps, currentUserId(request)),
    }),
  });
}
