import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { userSearchSchema } from '../../../src/validation/social';
import type { AppContext } from '../../context';
import { searchMembers } from '../../domain/social/search';
import { currentUserId, requireUser } from '../../http/authenticate';
import { withIconUrls } from './cards';

/** ユーザー検索: members by name, written or read, whole or partial (docs/social.md). */
export async function searchRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/v1/user_search',
      { preHandler: requireUser(ctx), schema: { querystring: userSearchSchema } },
      async (request) => {
        const { q, page, per_page: perPage } = request.query;
        const { items, hasMore } = await searchMembers(ctx.database.db, currentUserId(request), q, {
          page,
          perPage,
        });
        // Identity verification belongs to the death-detection area: until it records a
        // status, results carry no `certificated` flag and the avatar shows no badge.
        return { items: await withIconUrls(ctx.store, items), page, perPage, hasMore };
      },
    );
}
