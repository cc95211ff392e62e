import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { visibilityEndpoints } from '../../src/contract/visibility';
import type { AppContext } from '../context';
import { readVisibilityOverview } from '../domain/visibilityOverview';
import { currentUserId, requireUser } from '../http/authenticate';
import { endpointRoute } from '../http/endpoints';

/** /v1/mypage/visibility — who can see what of the member's, in one place (docs/visibility.md). */
export async function visibilityRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...endpointRoute(visibilityEndpoints.readVisibility),
    preHandler: requireUser(ctx),
    handler: (request) => readVisibilityOverview(ctx.database.db, currentUserId(request)),
  });
}
