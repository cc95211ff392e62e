import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  externalRegistrationSchema,
  inflowRegistrationSchema,
  loginSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  registrationSchema,
  requiredText,
  tokyoToday,
} from '../../../src/contract/rules/account';
import type { AccountDeps } from '../../domain/accounts/accountDeps';
import { activateAccount } from '../../domain/accounts/activation';
import { deleteAccount } from '../../domain/accounts/deletion';
import { logIn, logInWithIdentity } from '../../domain/accounts/login';
import { confirmPasswordReset, requestPasswordReset } from '../../domain/accounts/passwordReset';
import { serverPasswordSchema } from '../../domain/accounts/passwords';
import { verifyProviderAssertion } from '../../domain/accounts/providerAssertion';
import { revokeFamilyOf, rotateRefreshToken } from '../../domain/accounts/refreshTokens';
import {
  identityLinked,
  registerAccount,
  resendActivation,
  type NewAccount,
} from '../../domain/accounts/registration';
import { userDetail } from '../../domain/accounts/userDetail';
import { issueAccessToken } from '../../domain/accessTokens';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/authenticate';
import { ApiError, notFound } from '../../http/errors';
import { limitedAs } from '../../http/rateLimits';
import { currentPasswordField, noticeOfChange, proveFreshly } from './freshProof';

const ACCEPTED = { detail: 'accepted; see your mail' } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The spec sends `sexCode` as well as `sex_code`; both name the same field. */
function renameSexCode(user: unknown): unknown {
  if (!user || typeof user !== 'object') return user;
  const { sexCode, ...rest } = user as Record<string, unknown>;
  return rest.sex_code === undefined && sexCode !== undefined
    ? { ...rest, sex_code: sexCode }
    : rest;
}

const withSexCodeAlias = <T extends z.ZodType>(schema: T) => z.preprocess(renameSexCode, schema);

/** The same, inside the external-provider variant's `user_request`. */
const withNestedSexCodeAlias = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (body) =>
      body && typeof body === 'object' && 'user_request' in body
        ? { ...body, user_request: renameSexCode(body.user_request) }
        : body,
    schema,
  );

type WireRegistration = z.infer<ReturnType<typeof registrationSchema>>;

function newAccount(
  wire: Omit<WireRegistration, 'password' | 'admin_pet_id'> & {
    password?: string | undefined;
    admin_pet_id?: string | null | undefined;
  },
): NewAccount {
  return {
    username: wire.username,
    email: wire.email,
    password: wire.password,
    firstName: wire.first_name,
    lastName: wire.last_name,
    firstNameKana: wire.first_name_kana,
    lastNameKana: wire.last_name_kana,
    address: wire.address,
    birthdate: wire.birthdate,
    sexCode: wire.sex_code,
    iconName: wire.user_icon_url,
    adminPetId: wire.admin_pet_id,
  };
}

const refreshBody = z.object({ refresh_token: requiredText(200) });

/** The account calls of the product API (docs/accounts.md, "API calls"). */
export async function accountV1Routes(
  scope: FastifyInstance,
  ctx: AppContext,
  deps: AccountDeps,
): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const schemaOptions = {
    today: () => tokyoToday(ctx.clock.now()),
    password: serverPasswordSchema,
  };

  app.post('/v1/login', { schema: { body: loginSchema } }, async (request) =>
    logIn(deps, {
      email: request.body.username,
      password: request.body.password,
      client: request.ip,
      unlockToken: request.body.unlock_token,
    }),
  );

  app.post('/v1/refresh', { schema: { body: refreshBody } }, async (request) => {
    const result = await rotateRefreshToken(deps.db, request.body.refresh_token, deps.clock);
    if (result.outcome === 'reused') {
      throw new ApiError(401, 'refresh_token_reused', 'refresh token was already used');
    }
    if (result.outcome === 'invalid') {
      throw new ApiError(401, 'invalid_refresh_token', 'refresh token is not valid');
    }
    return {
      accessToken: await issueAccessToken(
        result.userId,
        deps.authSecret,
        deps.clock,
        result.signedInAt,
      ),
      refreshToken: result.refreshToken,
    };
  });

  app.post('/v1/logout', { schema: { body: refreshBody } }, async (request, reply) => {
    await revokeFamilyOf(deps.db, request.body.refresh_token, deps.clock);
    return reply.status(204).send();
  });

  app.post(
    '/v1/user',
    {
      config: limitedAs('mail'),
      schema: { body: withSexCodeAlias(registrationSchema(schemaOptions)) },
    },
    async (request, reply) => {
      await registerAccount(deps, newAccount(request.body));
      return reply.status(202).send(ACCEPTED);
    },
  );

  app.post(
    '/v1/user/create_inflow_user',
    {
      config: limitedAs('mail'),
      schema: { body: withSexCodeAlias(inflowRegistrationSchema(schemaOptions)) },
    },
    async (request, reply) => {
      await registerAccount(deps, {
        ...newAccount(request.body),
        inflowId: request.body.inflow_id,
      });
      return reply.status(202).send(ACCEPTED);
    },
  );

  app.post(
    '/v1/user/create_user_with_external_provider',
    {
      config: limitedAs('mail'),
      schema: { body: withNestedSexCodeAlias(externalRegistrationSchema(schemaOptions)) },
    },
    async (request, reply) => {
      const { user_request: user, provider_request: provider } = request.body;
      // `access_token` must be the assertion this server issued after its own OAuth callback.
      const identity = await verifyProviderAssertion(
        provider.access_token,
        deps.authSecret,
        deps.clock,
      );
      if (
        !identity ||
        identity.provider !== provider.provider_name ||
        identity.providerUserId !== provider.provider_user_id
      ) {
        throw new ApiError(401, 'provider_identity_unverified', 'provider identity not verified');
      }
      if (await identityLinked(deps, identity.provider, identity.providerUserId)) {
        throw new ApiError(409, 'identity_already_registered', 'this identity has an account');
      }
      await registerAccount(deps, { ...newAccount(user), identity });
      return reply.status(202).send(ACCEPTED);
    },
  );

  app.get(
    '/v1/user/confirm/:token/:email',
    { schema: { params: z.object({ token: z.string().max(200), email: z.string().max(254) }) } },
    async (request) => activateAccount(deps, request.params.token, request.params.email),
  );

  app.post(
    '/v1/user/resend_activation',
    { config: limitedAs('mail'), schema: { body: passwordResetRequestSchema } },
    async (request, reply) => {
      await resendActivation(deps, request.body.email);
      return reply.status(202).send(ACCEPTED);
    },
  );

  app.post(
    '/v1/password_reset',
    { config: limitedAs('mail'), schema: { body: passwordResetRequestSchema } },
    async (request, reply) => {
      await requestPasswordReset(deps, request.body.email);
      return reply.status(202).send(ACCEPTED);
    },
  );

  app.post(
    '/v1/password_reset/confirm',
    { schema: { body: passwordResetConfirmSchema(serverPasswordSchema) } },
    async (request, reply) => {
      await confirmPasswordReset(deps, request.body.token, request.body.password);
      return reply.status(204).send();
    },
  );

  app.get(
    '/v1/user/:userId',
    { preHandler: requireUser(ctx), schema: { params: z.object({ userId: z.string() }) } },
    async (request) => {
      const detail = UUID.test(request.params.userId)
        ? await userDetail(deps, request.params.userId)
        : undefined;
      if (!detail) throw notFound('user');
      return detail;
    },
  );

  app.delete(
    '/v1/user',
    { preHandler: requireUser(ctx), schema: { body: z.object(currentPasswordField).nullish() } },
    async (request, reply) => {
      const proven = await proveFreshly(ctx, request);
      await deleteAccount(deps, proven.userId);
      await noticeOfChange(ctx, proven, 'account_deleted');
      return reply.status(204).send();
    },
  );

  app.get(
    '/v1/tmp-return-jwt',
    {
      schema: {
        querystring: z.object({ email: z.string().optional(), assertion: z.string().optional() }),
      },
    },
    async (request) => {
      const identity = request.query.assertion
        ? await verifyProviderAssertion(request.query.assertion, deps.authSecret, deps.clock)
        : undefined;
      if (!identity)
        throw new ApiError(401, 'external_login_failed', 'no verified provider identity');
      return logInWithIdentity(deps, identity);
    },
  );
}
