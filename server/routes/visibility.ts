import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { visibilityEndpoints } from '../../contract/visibility';
import { socialDepsOf } from '../areaDeps';
import type { AppContext } from '../context';
import { readVisibilityOverview } from '../domain/visibilityOverview';
import { currentUserId } from '../http/authenticate';
import { endpointRoute } from '../http/endpoints';

/** /v1/mypage/visibility — who can see what of the member's, in one place (docs/visibility.md). */
export async function visibilityRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...endpointRoute(visibilityEndpoints.readVisibility),
    handler: (request) => readVisibilityOverview(socialDepsOf(ctx), currentUserId(request)),
  });
}
