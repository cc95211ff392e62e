import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  requiredText,
  emailChangeConfirmSchema,
  emailChangeSchema,
  passwordChangeSchema,
} from '../../../src/contract/rules/account';
import type { AppContext } from '../../context';
import {
  changePassword,
  confirmEmailChange,
  requestEmailChange,
} from '../../domain/accounts/credentialChanges';
import type { AccountDeps } from '../../domain/accounts/accountDeps';
import { serverPasswordSchema } from '../../domain/accounts/passwords';
import { reportChange } from '../../domain/accounts/changeNotices';
import { currentUserId, requireUser } from '../../http/authenticate';
import { limitedAs } from '../../http/rateLimits';
import { sessionKit } from '../auth/sessionKit';
import { currentPasswordField } from './freshProof';

/** The my page's sign-in credentials: password change and e-mail change (docs/accounts.md). */
export async function credentialRoutes(
  scope: FastifyInstance,
  ctx: AppContext,
  deps: AccountDeps,
): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  const kit = sessionKit(ctx);

  app.post(
    '/v1/mypage/password',
    { preHandler: requireUser(ctx), schema: { body: passwordChangeSchema(serverPasswordSchema) } },
    async (request, reply) => {
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
  );

  app.post(
    '/v1/mypage/email',
    // An account without a password proves itself by a recent sign-in instead.
    {
      preHandler: requireUser(ctx),
      config: limitedAs('mail'),
      schema: { body: emailChangeSchema.extend(currentPasswordField) },
    },
    async (request, reply) => {
      await requestEmailChange(deps, {
        userId: currentUserId(request),
        currentPassword: request.body.current_password,
        authTime: request.authTime,
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

  // The link of a change notice proves the mailbox it was sent to: no sign-in needed.
  app.post(
    '/v1/account/change_report',
    { schema: { body: z.object({ token: requiredText(2000) }) } },
    async (request) => reportChange(deps, request.body.token),
  );
}
