import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  emailChangeConfirmSchema,
  emailChangeSchema,
  passwordChangeSchema,
} from '../../../src/validation/account';
import type { AppContext } from '../../context';
import {
  changePassword,
  confirmEmailChange,
  requestEmailChange,
} from '../../domain/accounts/credentialChanges';
import type { AccountDeps } from '../../domain/accounts/deps';
import { serverPasswordSchema } from '../../domain/accounts/passwords';
import { currentUserId, requireUser } from '../../http/authenticate';
import { limitedAs } from '../../http/rateLimits';

/** The my page's sign-in credentials: password change and e-mail change (docs/accounts.md). */
export async function credentialRoutes(
  scope: FastifyInstance,
  ctx: AppContext,
  deps: AccountDeps,
): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/v1/mypage/password',
    { preHandler: requireUser(ctx), schema: { body: passwordChangeSchema(serverPasswordSchema) } },
    async (request) =>
      changePassword(deps, {
        userId: currentUserId(request),
        currentPassword: request.body.current_password,
        newPassword: request.body.new_password,
        client: request.ip,
      }),
  );

  app.post(
    '/v1/mypage/email',
    {
      preHandler: requireUser(ctx),
      config: limitedAs('mail'),
      schema: { body: emailChangeSchema },
    },
    async (request, reply) => {
      await requestEmailChange(deps, {
        userId: currentUserId(request),
        currentPassword: request.body.current_password,
        newEmail: request.body.new_email,
        client: request.ip,
      });
      return reply.status(202).send({ detail: 'accepted; see the mail sent to the new address' });
    },
  );

  app.post(
    '/v1/mypage/email/confirm',
    { schema: { body: emailChangeConfirmSchema } },
    async (request) => confirmEmailChange(deps, request.body.token),
  );
}
