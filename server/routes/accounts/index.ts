import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { oauthRoutes } from '../auth/oauth';
import { sessionRoutes } from '../auth/session';
import { sessionKit } from '../auth/sessionKit';
import { credentialRoutes } from './credentials';
import { accountDepsOf } from '../../areaDeps';
import { accountV1Routes } from './v1';

/**
 * The account calls of `/v1` and the session layer `/api/auth/*`, sharing one set of
 * account dependencies (one throttle store, so both sign-in paths count together).
 */
export async function accountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = accountDepsOf(ctx);
  app.addHook('onClose', () => deps.close());
  // Every answer here is about one person and many carry tokens: no cache may keep them.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const kit = sessionKit(ctx);
  await accountV1Routes(app, ctx, deps, kit);
  await credentialRoutes(app, ctx, deps);
  if (!ctx.config.authSecretGiven) {
    // Outside production a missing AUTH_SECRET is made up once and kept in DATA_DIR; say so,
    // as the secret then lives with the data (production refuses to start without one).
    app.log.warn(
      { code: 'NO_SECRET' },
      'AUTH_SECRET is not set: the session layer uses the secret kept in DATA_DIR/secrets.json',
    );
  }
  await sessionRoutes(app, ctx, deps, kit);
  await oauthRoutes(app, ctx, deps, kit);
}
