import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { checkInRoutes } from './checkIn';
import { fposRoutes } from './fpos';
import { identityRoutes } from './identity';
import { restorationRoutes } from './restoration';

/** Death detection, identity verification and device tokens (docs/death-detection.md). */
export async function deathDetectionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await fposRoutes(app, ctx);
  await identityRoutes(app, ctx);
  await checkInRoutes(app, ctx);
  await restorationRoutes(app, ctx);
}
