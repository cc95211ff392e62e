import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionAnswer } from '../../../contract/auth';
import type { Served } from '../../../contract/endpoint';
import type { AppContext } from '../../context';
import {
  csrfMatches,
  openSession,
  sealSession,
  type Session,
  type SessionData,
} from '../../domain/accounts/sessionCookie';
import type { SignInResult } from '../../domain/accounts/signIn';
import { ApiError } from '../../http/errors';

/**
 * What `GET /api/auth/session` answers for a session (the NextAuth REST shape), and what a
 * member's page carries inline. The refresh token stays in the httpOnly cookie: page script
 * never sees it, and the browser refreshes through `POST /api/auth/refresh`.
 */
export function sessionWire(session: Session): Served<SessionAnswer> {
  return {
    user: { ...session.user, accessToken: session.accessToken },
    expires: session.expires.toISOString(),
  };
}

const SESSION_COOKIE = 'shinobu.session-token';

/**
 * Under HTTPS the session-wide cookies take the `__Host-` prefix: browsers then accept them
 * only Secure, for `Path=/` and without a Domain, so no sibling subdomain can set or shadow
 * them.
 */
const HOST_PREFIX = '__Host-';

/** The session cookie's name over HTTP and over HTTPS (server/pages/spa.ts reads both). */
export const SESSION_COOKIE_NAMES: readonly string[] = [
  SESSION_COOKIE,
  `${HOST_PREFIX}${SESSION_COOKIE}`,
];

/**
 * What every session-layer route shares: cookie names and flags, the CSRF double-submit check,
 * the same-origin check of callback URLs, and reading and writing the session cookie.
 */
export function sessionKit(ctx: AppContext) {
  const { publicUrl, authSecret } = ctx.config;
  const origin = new URL(publicUrl).origin;
  const secure = publicUrl.startsWith('https:');
  const prefix = secure ? HOST_PREFIX : '';
  const cookies = {
    session: `${prefix}${SESSION_COOKIE}`,
    csrf: `${prefix}shinobu.csrf-token`,
    // Scoped to /api/auth, which `__Host-` forbids; `__Secure-` still demands Secure.
    oauthState: `${secure ? '__Secure-' : ''}shinobu.oauth-state`,
    // The browser a provider assertion was issued to (providerAssertion.ts), scoped to /v1.
    providerBinding: `${secure ? '__Secure-' : ''}shinobu.provider-binding`,
  };
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure } as const;
  /** Sent only with the `/v1` calls that spend a provider assertion. */
  const providerBindingOptions = { ...cookieOptions, path: '/v1' } as const;
  /** The same cookie for an activation's provider sign-in, spent by the session layer. */
  const activationBindingOptions = { ...cookieOptions, path: '/api/auth' } as const;

  async function writeSession(reply: FastifyReply, data: SessionData): Promise<Session> {
    const { value, expires } = await sealSession(data, authSecret, ctx.clock);
    reply.setCookie(cookies.session, value, { ...cookieOptions, expires });
    return { ...data, expires };
  }

  return {
    publicUrl,
    authSecret,
    cookies,
    cookieOptions,
    providerBindingOptions,
    activationBindingOptions,

    /** A same-origin callback URL made absolute; anything else is refused and logged. */
    checkedCallbackUrl(request: FastifyRequest, raw: string | undefined): string {
      if (raw === undefined || raw === '') return publicUrl;
      let url: URL | undefined;
      try {
        url = new URL(raw, publicUrl);
      } catch {
        url = undefined;
      }
      // Browsers read backslashes as slashes (`/\evil.example`): refuse them outright.
      if (!url || url.origin !== origin || raw.includes('\\')) {
        request.log.warn(
          { code: 'INVALID_CALLBACK_URL_ERROR', callbackUrl: raw.slice(0, 200) },
          'callbackUrl refused: not on this site',
        );
        throw new ApiError(400, 'INVALID_CALLBACK_URL_ERROR', 'callbackUrl must be on this site');
      }
      return url.toString();
    },

    requireCsrf(request: FastifyRequest, submitted: string | undefined): void {
      if (!csrfMatches(request.cookies[cookies.csrf], submitted, authSecret)) {
        throw new ApiError(403, 'MissingCSRF', 'csrf token missing or wrong');
      }
    },

    readSession: (request: FastifyRequest) =>
      openSession(request.cookies[cookies.session], authSecret, ctx.clock),

    writeSession,

    /** The session a sign-in opens, by any way in: the member and their /v1 tokens. */
    startSession: (reply: FastifyReply, result: SignInResult): Promise<Session> =>
      writeSession(reply, {
        user: {
          id: result.userId,
          username: result.username,
          memorialPageId: result.memorialPageId,
          iconUrl: result.userIconUrl,
        },
        accessToken: result.accessToken,
        refreshToken: result.refreshToken,
      }),
  };
}

export type SessionKit = ReturnType<typeof sessionKit>;
