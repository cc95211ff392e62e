import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountEndpoints as endpoints, passwordChangeBody } from '../../../contract/accounts';
import type { AppContext } from '../../context';
import {
  changePassword,
  confirmEmailChange,
  requestEmailChange,
} from '../../domain/accounts/credentialChanges';
import type { AccountDeps } from '../../domain/accounts/accountDeps';
import { serverPasswordSchema } from '../../domain/accounts/passwords';
import { reportChange } from '../../domain/accounts/changeNotices';
import { currentUserId } from '../../http/authenticate';
import { endpointRoute, withServerBody } from '../../http/endpoints';
import { limitedAs } from '../../http/rateLimits';
import { sessionKit } from '../auth/sessionKit';

/** The my page's sign-in credentials: password change and e-mail change (docs/accounts.md). */
export async function credentialRoutes(
  scope: FastifyInstance,
  ctx: AppContext,
  deps: AccountDeps,
): Promise<void> {
  const routes = scope.withTypeProvider<ZodTypeProvider>();

  const kit = sessionKit(ctx);

  routes.route({
    ...withServerBody(endpoints.changePassword, passwordChangeBody(serverPasswordSchema)),
    handler: async (request, reply) => {
      const userId = currentUserId(request);
      const pair = await changePassword(deps, {
        userId,
        currentPassword: request.body.current_password,
        newPassword: request.body.new_password,
        client: request.ip,
      });
      // A browser's session keeps the new pair in its cookie: the refresh token stays out of
      // page script. The app (no session cookie) gets the pair itself.
      const session = await kit.readSession(request);
      if (session?.user.id !== userId) return pair;
      await kit.writeSession(reply, { ...session, ...pair });
      return { accessToken: pair.accessToken };
    },
  });

  const requestEmailChangeRoute = endpointRoute(endpoints.requestEmailChange);
  routes.route({
    ...requestEmailChangeRoute,
    // An account without a password proves itself by a recent sign-in instead.
    config: { ...requestEmailChangeRoute.config, ...limitedAs('mail') },
    handler: async (request, reply) => {
      await requestEmailChange(deps, {
        userId: currentUserId(request),
        currentPassword: request.body.current_password,
        authTime: request.authTime,
        newEmail: request.body.new_email,
        client: request.ip,
      });
      return reply.status(202).send({ detail: 'accepted; see the mail sent to the new address' });
    },
  });

  routes.route({
    ...endpointRoute(endpoints.confirmEmailChange),
    handler: (request) => confirmEmailChange(deps, request.body.token),
  });

  // The link of a change notice proves the mailbox it was sent to: no sign-in needed.
  routes.route({
    ...endpointRoute(endpoints.reportChange),
    handler: (request) => reportChange(deps, request.body.token),
  });
}
