import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deathDetectionEndpoints as death } from '../../../contract/deathDetection';
import { restorationDepsOf } from '../../areaDeps';
import type { AppContext } from '../../context';
import { verifyProviderAssertion } from '../../domain/accounts/providerAssertion';
import {
  proveRestoration,
  restorationLinkNeeds,
  restoreAccount,
} from '../../domain/deathDetection/restoration';
import { ApiError } from '../../http/errors';
import { endpointRoute } from '../../http/endpoints';
import { limitedAs } from '../../http/rateLimits';
import { sessionKit } from '../auth/sessionKit';

/**
 * The way back for a member whose death was confirmed by mistake: the link mailed at their
 * refused sign-in, and their password or a new sign-in with their provider. No bearer: the
 * account has no session left.
 */
export async function restorationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const kit = sessionKit(ctx);
  const deps = restorationDepsOf(ctx);
  // Each call checks a password, a proof or a link: counted with the sign-ins.
  const limited = <R extends { config: object }>(route: R) => ({
    ...route,
    config: { ...route.config, ...limitedAs('auth') },
  });

  api.route({
    ...limited(endpointRoute(death.restoreAccount)),
    handler: async (request) => restoreAccount(deps, request.body.token, request.body.password),
  });

  api.route({
    ...limited(endpointRoute(death.restorationLink)),
    handler: async (request) => restorationLinkNeeds(deps, request.body.token),
  });

  api.route({
    ...limited(endpointRoute(death.proveRestoration)),
    handler: async (request, reply) => {
      const verified = await verifyProviderAssertion(
        request.body.assertion,
        request.cookies[kit.cookies.providerBinding],
        ctx.config.authSecret,
        ctx.clock,
      );
      if (!verified)
        throw new ApiError(401, 'provider_identity_unverified', 'provider identity not verified');
      if (!(await verified.spend(deps.db)))
        throw new ApiError(401, 'provider_assertion_used', 'this provider assertion was used');
      reply.clearCookie(kit.cookies.providerBinding, kit.providerBindingOptions);
      return proveRestoration(deps, request.body.token, verified);
    },
  });
}
