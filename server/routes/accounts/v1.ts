import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountEndpoints as endpoints,
  passwordResetConfirmBody,
  registrationBodies,
} from '../../../contract/accounts';
import { UUID_PATTERN } from '../../../contract/common';
import { tokyoToday } from '../../../contract/rules/account';
import type { AccountDeps } from '../../domain/accounts/accountDeps';
import { activateAccount } from '../../domain/accounts/activation';
import { deleteAccount } from '../../domain/accounts/deletion';
import { logIn, logInWithIdentity } from '../../domain/accounts/login';
import { confirmPasswordReset, requestPasswordReset } from '../../domain/accounts/passwordReset';
import { serverPasswordSchema } from '../../domain/accounts/passwords';
import { verifyProviderAssertion } from '../../domain/accounts/providerAssertion';
import {
  revokeAllOfUser,
  revokeFamilyOf,
  rotateRefreshToken,
} from '../../domain/accounts/refreshTokens';
import {
  identityLinked,
  registerAccount,
  resendActivation,
  type NewAccount,
} from '../../domain/accounts/registration';
import { userDetail } from '../../domain/accounts/userDetail';
import { issueAccessToken } from '../../domain/accessTokens';
import type { AppContext } from '../../context';
import { currentUserId } from '../../http/authenticate';
import { endpointRoute, withServerBody } from '../../http/endpoints';
import { ApiError, notFound } from '../../http/errors';
import { limitedAs } from '../../http/rateLimits';
import type { SessionKit } from '../auth/sessionKit';
import { noticeOfChange, proveFreshly } from './freshProof';

const ACCEPTED = { detail: 'accepted; see your mail' } as const;

type WireRegistration = z.infer<typeof endpoints.register.body>;

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

/** The account calls of the product API (docs/accounts.md, "API calls"). */
export async function accountV1Routes(
  scope: FastifyInstance,
  ctx: AppContext,
  deps: AccountDeps,
  kit: SessionKit,
): Promise<void> {
  const routes = scope.withTypeProvider<ZodTypeProvider>();
  /** A provider assertion this server issued to the calling browser (its binding cookie). */
  const boundAssertion = (request: FastifyRequest, assertion: string) =>
    verifyProviderAssertion(
      assertion,
      request.cookies[kit.cookies.providerBinding],
      deps.authSecret,
      deps.clock,
    );
  const assertionUsed = () =>
    new ApiError(
      401,
      'provider_assertion_used',
      'this provider assertion was already used; sign in with the provider again',
    );
  // The server's rules: today from the injected clock, and the breached-password list.
  const serverBodies = registrationBodies({
    today: () => tokyoToday(ctx.clock.now()),
    password: serverPasswordSchema,
  });
  const mailLimit = limitedAs('mail');

  routes.route({
    ...endpointRoute(endpoints.logIn),
    handler: (request) =>
      logIn(deps, {
        email: request.body.username,
        password: request.body.password,
        client: request.ip,
        unlockToken: request.body.unlock_token,
      }),
  });

  routes.route({
    ...endpointRoute(endpoints.refresh),
    handler: async (request) => {
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
          result.sessionEpoch,
        ),
        refreshToken: result.refreshToken,
      };
    },
  });

  routes.route({
    ...endpointRoute(endpoints.logOut),
    handler: async (request, reply) => {
      await revokeFamilyOf(deps.db, request.body.refresh_token, deps.clock);
      return reply.status(204).send();
    },
  });

  routes.route({
    ...withServerBody(endpoints.register, serverBodies.standard),
    config: { ...mailLimit, endpoint: endpoints.register },
    handler: async (request, reply) => {
      await registerAccount(deps, newAccount(request.body));
      return reply.status(202).send(ACCEPTED);
    },
  });

  routes.route({
    ...withServerBody(endpoints.registerByInflow, serverBodies.inflow),
    config: { ...mailLimit, endpoint: endpoints.registerByInflow },
    handler: async (request, reply) => {
      await registerAccount(deps, {
        ...newAccount(request.body),
        inflowId: request.body.inflow_id,
      });
      return reply.status(202).send(ACCEPTED);
    },
  });

  routes.route({
    ...withServerBody(endpoints.registerWithProvider, serverBodies.external),
    config: { ...mailLimit, endpoint: endpoints.registerWithProvider },
    handler: async (request, reply) => {
      const { user_request: user, provider_request: provider } = request.body;
      // `access_token` must be the assertion this server issued after its own OAuth callback,
      // to this browser, not used yet.
      const verified = await boundAssertion(request, provider.access_token);
      if (
        !verified ||
        verified.provider !== provider.provider_name ||
        verified.providerUserId !== provider.provider_user_id
      ) {
        throw new ApiError(401, 'provider_identity_unverified', 'provider identity not verified');
      }
      const identity = { provider: verified.provider, providerUserId: verified.providerUserId };
      if (await identityLinked(deps, identity.provider, identity.providerUserId)) {
        throw new ApiError(409, 'identity_already_registered', 'this identity has an account');
      }
      if (!(await verified.spend(deps.db))) throw assertionUsed();
      try {
        await registerAccount(deps, { ...newAccount(user), identity });
      } catch (error) {
        await verified.giveBack(deps.db);
        throw error;
      }
      reply.clearCookie(kit.cookies.providerBinding, kit.providerBindingOptions);
      return reply.status(202).send(ACCEPTED);
    },
  });

  routes.route({
    ...endpointRoute(endpoints.activate),
    handler: (request) => activateAccount(deps, request.params.token, request.params.email),
  });

  const activateWithPassword = endpointRoute(endpoints.activateWithPassword);
  routes.route({
    ...activateWithPassword,
    config: { ...activateWithPassword.config, ...limitedAs('auth') },
    handler: async (request) => {
      const { password, provider_assertion: assertion } = request.body;
      const verified =
        assertion === undefined ? undefined : ((await boundAssertion(request, assertion)) ?? null);
      return activateAccount(deps, request.params.token, request.params.email, {
        password,
        assertion: verified,
      });
    },
  });

  routes.route({
    ...endpointRoute(endpoints.resendActivation),
    config: { ...mailLimit, endpoint: endpoints.resendActivation },
    handler: async (request, reply) => {
      await resendActivation(deps, request.body.email);
      return reply.status(202).send(ACCEPTED);
    },
  });

  routes.route({
    ...endpointRoute(endpoints.requestPasswordReset),
    config: { ...mailLimit, endpoint: endpoints.requestPasswordReset },
    handler: async (request, reply) => {
      await requestPasswordReset(deps, request.body.email);
      return reply.status(202).send(ACCEPTED);
    },
  });

  routes.route({
    ...withServerBody(
      endpoints.confirmPasswordReset,
      passwordResetConfirmBody(serverPasswordSchema),
    ),
    handler: async (request, reply) => {
      await confirmPasswordReset(deps, request.body.token, request.body.password);
      return reply.status(204).send();
    },
  });

  routes.route({
    ...endpointRoute(endpoints.logOutEverywhere),
    handler: async (request, reply) => {
      await revokeAllOfUser(deps.db, currentUserId(request), deps.clock);
      return reply.status(204).send();
    },
  });

  routes.route({
    ...endpointRoute(endpoints.readUser),
    handler: async (request) => {
      const detail = UUID_PATTERN.test(request.params.userId)
        ? await userDetail(deps, request.params.userId)
        : undefined;
      if (!detail) throw notFound('user');
      return detail;
    },
  });

  routes.route({
    ...endpointRoute(endpoints.deleteAccount),
    handler: async (request, reply) => {
      const proven = await proveFreshly(ctx, request);
      await deleteAccount(deps, proven.userId);
      await noticeOfChange(ctx, proven, 'account_deleted');
      return reply.status(204).send();
    },
  });

  routes.route({
    ...endpointRoute(endpoints.signInWithAssertion),
    handler: async (request, reply) => {
      const verified = request.query.assertion
        ? await boundAssertion(request, request.query.assertion)
        : undefined;
      if (!verified)
        throw new ApiError(401, 'external_login_failed', 'no verified provider identity');
      if (!(await verified.spend(deps.db))) throw assertionUsed();
      let signedIn;
      try {
        signedIn = await logInWithIdentity(deps, verified);
      } catch (error) {
        await verified.giveBack(deps.db);
        throw error;
      }
      reply.clearCookie(kit.cookies.providerBinding, kit.providerBindingOptions);
      return signedIn;
    },
  });
}
