import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deathDetectionEndpoints as death } from '../../../src/contract/deathDetection';
import type { AppContext } from '../../context';
import { restoreAccount } from '../../domain/deathDetection/restoration';
import { endpointRoute } from '../../http/endpoints';
import { limitedAs } from '../../http/rateLimits';
import { japaneseTexts } from '../../pages/translations';

/**
 * The way back for a member whose death was confirmed by mistake: the link mailed at their
 * refused sign-in, and their password. No bearer: the account has no session left.
 */
export async function restorationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const route = endpointRoute(death.restoreAccount);
  api.route({
    ...route,
    // Each call checks a password: counted with the sign-ins.
    config: { ...route.config, ...limitedAs('auth') },
    handler: async (request) =>
      restoreAccount(
        {
          db: ctx.database.db,
          clock: ctx.clock,
          publicUrl: ctx.config.publicUrl,
          texts: japaneseTexts,
        },
        request.body.token,
        request.body.password,
      ),
  });
}
