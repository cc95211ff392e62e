import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { albumRoutes } from './album';
import { historyRoutes } from './history';
import { invitationRoutes } from './invitations';
import { mourningRoutes } from './mourning';
import { memorialPageRoutes } from './pages';
import { shareImageRoutes } from './shareImage';
import { signedUrlRoutes } from './signedUrl';

/** Everything of the memorial area (docs/memorial.md lists the calls). */
export async function memorialRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await memorialPageRoutes(app, ctx);
  await albumRoutes(app, ctx);
  await historyRoutes(app, ctx);
  await mourningRoutes(app, ctx);
  await invitationRoutes(app, ctx);
  // Its own scope: the rate limiter it registers applies to it alone.
  await app.register(async (scope) => signedUrlRoutes(scope, ctx));
  await shareImageRoutes(app, ctx);
}
