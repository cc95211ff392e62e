import type { FastifyInstance, FastifyRequest } from 'fastify';
import { verifyAccessToken } from '../domain/accessTokens';
import type { AppContext } from '../context';
import { unauthenticated } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in member, set by `authenticateByContract`. */
    userId?: string;
    /** When that member signed in (their token's `auth_time`), set with `userId`. */
    authTime?: Date;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice('Bearer '.length).trim() || undefined;
}

/**
 * The token's claims while its signature, expiry and session all stand: the one check for an
 * access token, whether it came as a bearer or in a body.
 */
export async function verifiedAccessToken(ctx: AppContext, token: string) {
  const claims = await verifyAccessToken(token, ctx.config.authSecret, ctx.clock);
  if (!claims) return undefined;
  return (await ctx.sessions.stands(claims.userId, claims.sessionEpoch)) ? claims : undefined;
}

/** Sets request.userId when a valid bearer token is sent; leaves it unset otherwise. */
export function optionalUser(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request);
    if (!token) return;
    const claims = await verifiedAccessToken(ctx, token);
    if (!claims) return;
    request.userId = claims.userId;
    request.authTime = claims.authTime;
  };
}

/**
 * Who may call each route, as its contract's endpoint says (`caller`): a member-only route
 * answers 401 without a valid bearer once the rate limits have counted the call, before its
 * body is read (a caller without a token learns nothing of what the body should be); an optional one knows the member if one calls. The
 * one place the API decides who is calling; routes outside the contract check for themselves.
 */
export function authenticateByContract(app: FastifyInstance, ctx: AppContext): void {
  const readUser = optionalUser(ctx);
  // preParsing: after the rate limits (onRequest), before the body is read and validated.
  app.addHook('preParsing', async (request, _reply, payload) => {
    const caller = request.routeOptions.config.endpoint?.caller;
    if (caller === 'member' || caller === 'optional') {
      // A route's own rate limit may have read the member already (its key is per member).
      if (request.userId === undefined) await readUser(request);
      if (caller === 'member' && !request.userId) throw unauthenticated();
    }
    return payload;
  });
}

/** The signed-in member's id inside the handler of a member-only route. */
export function currentUserId(request: FastifyRequest): string {
  if (!request.userId) throw unauthenticated();
  return request.userId;
}
