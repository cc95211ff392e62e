import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { verifyAccessToken } from '../../domain/accessTokens';
import type { AccountDeps } from '../../domain/accounts/deps';
import { logIn } from '../../domain/accounts/login';
import { revokeFamilyOf } from '../../domain/accounts/refreshTokens';
import {
  csrfMatches,
  csrfTokenOf,
  newCsrfCookie,
  openSession,
  sealSession,
  type Session,
  type SessionData,
} from '../../domain/accounts/sessionCookie';
import { ApiError } from '../../http/errors';

/** The reasons a credentials sign-in fails, as the `code` of the error URL (client texts). */
const SIGN_IN_FAILURES = ['invalid_credentials', 'too_many_attempts', 'account_locked'] as const;

const formFlag = z.string().max(10).optional();
const credentialsForm = z.object({
  csrfToken: z.string().max(200).optional(),
  username: z.string().max(1000).optional(),
  password: z.string().max(1000).optional(),
  callbackUrl: z.string().max(2000).optional(),
  json: formFlag,
});
const signOutForm = z.object({
  csrfToken: z.string().max(200).optional(),
  callbackUrl: z.string().max(2000).optional(),
  json: formFlag,
});
const sessionUpdate = z.object({
  csrfToken: z.string().max(200).optional(),
  data: z
    .object({
      accessToken: z.string().max(4096).optional(),
      refreshToken: z.string().max(200).optional(),
      username: z.string().max(50).optional(),
      iconUrl: z.string().max(4096).nullable().optional(),
    })
    .optional(),
});

/**
 * The session layer `/api/auth/*` in the shapes of the NextAuth REST protocol: an encrypted
 * httpOnly session cookie holding the member and their /v1 tokens, CSRF double submit on
 * every POST, and callback URLs limited to this origin.
 */
export async function sessionRoutes(
  scope: FastifyInstance,
  ctx: AppContext,
  deps: AccountDeps,
): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { publicUrl, authSecret } = ctx.config;
  const origin = new URL(publicUrl).origin;
  const secure = publicUrl.startsWith('https:');
  // Browsers accept the __Secure- prefix only on Secure cookies.
  const cookiePrefix = secure ? '__Secure-' : '';
  const SESSION_COOKIE = `${cookiePrefix}shinobu.session-token`;
  const CSRF_COOKIE = `${cookiePrefix}shinobu.csrf-token`;
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure } as const;

  /** A same-origin callback URL made absolute; anything else is refused. */
  function checkedCallbackUrl(raw: string | undefined): string {
    if (raw === undefined || raw === '') return publicUrl;
    let url: URL | undefined;
    try {
      url = new URL(raw, publicUrl);
    } catch {
      url = undefined;
    }
    // Backslashes are read as slashes by browsers (`/\\evil.example`): refuse them outright.
    if (!url || url.origin !== origin || raw.includes('\\')) {
      throw new ApiError(400, 'INVALID_CALLBACK_URL_ERROR', 'callbackUrl must be on this site');
    }
    return url.toString();
  }

  function requireCsrf(request: FastifyRequest, submitted: string | undefined): void {
    if (!csrfMatches(request.cookies[CSRF_COOKIE], submitted, authSecret)) {
      throw new ApiError(403, 'MissingCSRF', 'csrf token missing or wrong');
    }
  }

  const readSession = (request: FastifyRequest) =>
    openSession(request.cookies[SESSION_COOKIE], authSecret, ctx.clock);

  async function writeSession(reply: FastifyReply, data: SessionData): Promise<Session> {
    const { value, expires } = await sealSession(data, authSecret, ctx.clock);
    reply.setCookie(SESSION_COOKIE, value, { ...cookieOptions, expires });
    return { ...data, expires };
  }

  const toWire = (session: Session) => ({
    user: { ...session.user, accessToken: session.accessToken, refreshToken: session.refreshToken },
    expires: session.expires.toISOString(),
  });

  const sendNull = (reply: FastifyReply) => reply.type('application/json').send('null');

  app.get('/api/auth/csrf', async (request, reply) => {
    let token = csrfTokenOf(request.cookies[CSRF_COOKIE], authSecret);
    if (!token) {
      const fresh = newCsrfCookie(authSecret);
      token = fresh.token;
      reply.setCookie(CSRF_COOKIE, fresh.cookie, cookieOptions);
    }
    return { csrfToken: token };
  });

  app.get('/api/auth/providers', async () => ({
    credentials: {
      id: 'credentials',
      name: 'Credentials',
      type: 'credentials',
      signinUrl: `${publicUrl}/api/auth/signin/credentials`,
      callbackUrl: `${publicUrl}/api/auth/callback/credentials`,
    },
  }));

  app.post(
    '/api/auth/callback/credentials',
    { schema: { body: credentialsForm } },
    async (request, reply) => {
      const url = checkedCallbackUrl(request.body.callbackUrl);
      requireCsrf(request, request.body.csrfToken);
      try {
        const result = await logIn(deps, {
          email: request.body.username ?? '',
          password: request.body.password ?? '',
          client: request.ip,
        });
        await writeSession(reply, {
          user: {
            id: result.userId,
            username: result.username,
            memorialPageId: result.memorialPageId,
            iconUrl: result.userIconUrl,
          },
          accessToken: result.accessToken,
          refreshToken: result.refreshToken,
        });
        return { url };
      } catch (error) {
        const code =
          error instanceof ApiError && (SIGN_IN_FAILURES as readonly string[]).includes(error.code)
            ? error.code
            : 'unexpected';
        if (code === 'unexpected') request.log.error({ err: error }, 'credentials sign-in failed');
        if (error instanceof ApiError && error.headers) reply.headers(error.headers);
        const query = new URLSearchParams({ error: 'CredentialsSignin', code });
        return reply.status(401).send({ url: `${publicUrl}/api/auth/error?${query.toString()}` });
      }
    },
  );

  app.get('/api/auth/session', async (request, reply) => {
    const session = await readSession(request);
    return session ? toWire(session) : sendNull(reply);
  });

  app.post('/api/auth/session', { schema: { body: sessionUpdate } }, async (request, reply) => {
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
  });

  app.post('/api/auth/signout', { schema: { body: signOutForm } }, async (request, reply) => {
    const url = checkedCallbackUrl(request.body.callbackUrl);
    requireCsrf(request, request.body.csrfToken);
    const session = await readSession(request);
    if (session?.refreshToken) await revokeFamilyOf(deps.db, session.refreshToken, ctx.clock);
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    return { url };
  });

  app.post(
    '/api/auth/signin/:provider',
    { schema: { body: signOutForm, params: z.object({ provider: z.string().max(50) }) } },
    async (request) => {
      const callbackUrl = checkedCallbackUrl(request.body.callbackUrl);
      requireCsrf(request, request.body.csrfToken);
      // No OAuth provider is configured in this build: every provider leads to the sign-in page.
      const query = new URLSearchParams({ callbackUrl });
      return { url: `${publicUrl}/api/auth/signin?${query.toString()}` };
    },
  );

  /** The protocol's own pages are the SPA's login screen. */
  const toLogin = (query: Record<string, string | undefined>) => {
    const kept = Object.entries(query).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    );
    const search = new URLSearchParams(kept).toString();
    return `/login${search ? `?${search}` : ''}`;
  };
  const pageQuery = z.object({
    error: z.string().max(100).optional(),
    code: z.string().max(100).optional(),
    callbackUrl: z.string().max(2000).optional(),
  });
  app.get('/api/auth/error', { schema: { querystring: pageQuery } }, async (request, reply) =>
    reply.redirect(toLogin({ error: request.query.error ?? 'Default', code: request.query.code })),
  );
  app.get('/api/auth/signin', { schema: { querystring: pageQuery } }, async (request, reply) =>
    reply.redirect(toLogin(request.query)),
  );
}
