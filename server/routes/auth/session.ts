import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authEndpoints as endpoints } from '../../../contract/auth';
import type { AppContext } from '../../context';
import { issueAccessToken, verifyAccessToken } from '../../domain/accessTokens';
import type { AccountDeps } from '../../domain/accounts/accountDeps';
import { activateAccount } from '../../domain/accounts/activation';
import { logIn } from '../../domain/accounts/login';
import { verifyProviderAssertion } from '../../domain/accounts/providerAssertion';
import { AccountMemorialized } from '../../domain/deathDetection/restoration';
import { revokeFamilyOf, rotateRefreshToken } from '../../domain/accounts/refreshTokens';
import { csrfTokenOf, newCsrfCookie } from '../../domain/accounts/sessionCookie';
import { endpointRoute } from '../../http/endpoints';
import { DomainError } from '../../domain/errors';
import { ApiError, httpAnswerOf } from '../../http/errors';
import { sessionWire, type SessionKit } from './sessionKit';

/** The reasons a credentials sign-in fails, as the `code` of the error URL (client texts). */
const SIGN_IN_FAILURES = [
  'invalid_credentials',
  'too_many_attempts',
  'account_locked',
  'account_memorialized',
] as const;

/**
 * The session layer `/api/auth/*` in the shapes of the NextAuth REST protocol: an encrypted
 * httpOnly session cookie holding the member and their /v1 tokens, CSRF double submit on
 * every POST, and callback URLs limited to this origin.
 */
export async function sessionRoutes(
  scope: FastifyInstance,
  ctx: AppContext,
  deps: AccountDeps,
  kit: SessionKit,
): Promise<void> {
  const routes = scope.withTypeProvider<ZodTypeProvider>();
  const { publicUrl, authSecret, cookies, cookieOptions, checkedCallbackUrl, requireCsrf } = kit;
  const { readSession, writeSession, startSession } = kit;

  const toWire = sessionWire;

  const sendNull = (reply: FastifyReply) => reply.type('application/json').send('null');

  routes.route({
    ...endpointRoute(endpoints.csrfToken),
    handler: async (request, reply) => {
      let token = csrfTokenOf(request.cookies[cookies.csrf], authSecret);
      if (!token) {
        const fresh = newCsrfCookie(authSecret);
        token = fresh.token;
        reply.setCookie(cookies.csrf, fresh.cookie, cookieOptions);
      }
      return { csrfToken: token };
    },
  });

  routes.route({
    ...endpointRoute(endpoints.signInWithCredentials),
    handler: async (request, reply) => {
      const url = checkedCallbackUrl(request, request.body.callbackUrl);
      requireCsrf(request, request.body.csrfToken);
      try {
        const result = await logIn(deps, {
          email: request.body.username ?? '',
          password: request.body.password ?? '',
          client: request.ip,
          unlockToken: request.body.unlockToken,
        });
        await startSession(reply, result);
        return { url };
      } catch (error) {
        const code =
          error instanceof DomainError &&
          (SIGN_IN_FAILURES as readonly string[]).includes(error.code)
            ? error.code
            : 'unexpected';
        if (code === 'unexpected') {
          request.log.error(
            { err: error, code: 'CALLBACK_CREDENTIALS_HANDLER_ERROR' },
            'credentials sign-in failed',
          );
        }
        if (error instanceof DomainError) reply.headers(httpAnswerOf(error).headers);
        const query = new URLSearchParams({ error: 'CredentialsSignin', code });
        // The screen says when the death was confirmed (the release), in Asia/Tokyo.
        if (error instanceof AccountMemorialized)
          query.set('since', error.releasedAt.toISOString());
        return reply.status(401).send({ url: `${publicUrl}/api/auth/error?${query.toString()}` });
      }
    },
  });

  /**
   * The browser's side of the activation link: the same activation as
   * GET /v1/user/confirm/{token}/{email}, whose login session goes into the cookie instead of
   * the answer (decision 123), so the new member arrives signed in. The CSRF pair keeps another
   * site from signing a visitor into an account of its own (login CSRF).
   */
  routes.route({
    ...endpointRoute(endpoints.activateAndSignIn),
    handler: async (request, reply) => {
      const url = checkedCallbackUrl(request, request.body.callbackUrl);
      requireCsrf(request, request.body.csrfToken);
      const { token, email, password, assertion } = request.body;
      // A provider sign-in made from the link's page, bound to this browser (its cookie).
      const verified =
        assertion === undefined
          ? undefined
          : ((await verifyProviderAssertion(
              assertion,
              request.cookies[cookies.providerBinding],
              authSecret,
              ctx.clock,
            )) ?? null);
      const activated = await activateAccount(deps, token, email, {
        password,
        assertion: verified,
      });
      if (verified) reply.clearCookie(cookies.providerBinding, kit.activationBindingOptions);
      await startSession(reply, activated);
      return { url };
    },
  });

  routes.route({
    ...endpointRoute(endpoints.readSession),
    handler: async (request, reply) => {
      const session = await readSession(request);
      return session ? toWire(session) : sendNull(reply);
    },
  });

  routes.route({
    ...endpointRoute(endpoints.updateSession),
    handler: async (request, reply) => {
      requireCsrf(request, request.body.csrfToken);
      const session = await readSession(request);
      if (!session) return sendNull(reply);
      const { accessToken, refreshToken, username, iconUrl } = request.body.data ?? {};
      if (accessToken !== undefined) {
        // Only a genuine token of the same member may replace the one in the cookie.
        const claims = await verifyAccessToken(accessToken, authSecret, ctx.clock);
        if (claims?.userId !== session.user.id) {
          throw new ApiError(400, 'session_update_invalid', 'access token is not for this session');
        }
      }
      const updated = await writeSession(reply, {
        user: {
          ...session.user,
          username: username ?? session.user.username,
          iconUrl: iconUrl === undefined ? session.user.iconUrl : iconUrl,
        },
        accessToken: accessToken ?? session.accessToken,
        refreshToken: refreshToken ?? session.refreshToken,
      });
      return toWire(updated);
    },
  });

  /**
   * The browser's token refresh: the refresh token never leaves the httpOnly cookie. It is
   * spent and replaced here exactly as POST /v1/refresh does for the app, and the answer is
   * the session without it.
   */
  routes.route({
    ...endpointRoute(endpoints.refreshSession),
    handler: async (request, reply) => {
      requireCsrf(request, request.body.csrfToken);
      const session = await readSession(request);
      if (!session?.refreshToken) {
        throw new ApiError(401, 'invalid_refresh_token', 'no session to refresh');
      }
      const result = await rotateRefreshToken(deps.db, session.refreshToken, ctx.clock);
      if (result.outcome !== 'rotated') {
        reply.clearCookie(cookies.session, cookieOptions);
        throw result.outcome === 'reused'
          ? new ApiError(401, 'refresh_token_reused', 'refresh token was already used')
          : new ApiError(401, 'invalid_refresh_token', 'refresh token is not valid');
      }
      const updated = await writeSession(reply, {
        user: session.user,
        accessToken: await issueAccessToken(
          result.userId,
          authSecret,
          ctx.clock,
          result.signedInAt,
          result.sessionEpoch,
        ),
        refreshToken: result.refreshToken,
      });
      return toWire(updated);
    },
  });

  routes.route({
    ...endpointRoute(endpoints.signOut),
    handler: async (request, reply) => {
      const url = checkedCallbackUrl(request, request.body.callbackUrl);
      requireCsrf(request, request.body.csrfToken);
      const session = await readSession(request);
      if (session?.refreshToken) await revokeFamilyOf(deps.db, session.refreshToken, ctx.clock);
      reply.clearCookie(cookies.session, cookieOptions);
      return { url };
    },
  });

  /** The protocol's own pages are the SPA's login screen. */
  const toLogin = (query: Record<string, string | undefined>) => {
    const kept = Object.entries(query).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    );
    const search = new URLSearchParams(kept).toString();
    return `/login${search ? `?${search}` : ''}`;
  };
  routes.route({
    ...endpointRoute(endpoints.errorPage),
    handler: async (request, reply) =>
      reply.redirect(
        toLogin({
          error: request.query.error ?? 'Default',
          code: request.query.code,
          since: request.query.since,
        }),
      ),
  });
  routes.route({
    ...endpointRoute(endpoints.signInPage),
    handler: async (request, reply) => reply.redirect(toLogin(request.query)),
  });
}
