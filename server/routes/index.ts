import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { accountRoutes } from './accounts';
import { deathDetectionRoutes } from './deathDetection';
import { authLogRoute } from './auth/log';
import { dataExportRoutes } from './dataExport';
import { endingNoteRoutes } from './endingnote';
import { memorialRoutes } from './memorial';
import { socialRoutes } from './social';
import { timeCapsuleRoutes } from './timecapsule';
import { visibilityRoutes } from './visibility';

/**
 * Every area's routes, each a plugin of its own file. `/v1/*` is the product API and
 * `/api/auth/*` the session layer. Add one line per area.
 */
export async function apiRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;
  await app.register(authLogRoute);
  await app.register(async (scope) => accountRoutes(scope, ctx));
  await app.register(async (scope) => endingNoteRoutes(scope, ctx));
  await app.register(async (scope) => timeCapsuleRoutes(scope, ctx));
  await app.register(async (scope) => memorialRoutes(scope, ctx));
  await app.register(async (scope) => socialRoutes(scope, ctx));
  await app.register(async (scope) => deathDetectionRoutes(scope, ctx));
  await app.register(async (scope) => dataExportRoutes(scope, ctx));
  await app.register(async (scope) => visibilityRoutes(scope, ctx));
}
