import type { FastifyReply, FastifyRequest } from 'fastify';
import { verifyAccessToken } from '../domain/accessTokens';
import type { AppContext } from '../context';
import { unauthenticated } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in member, set by `requireUser`. */
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

/** preHandler for every member-only call: 401 without a valid bearer token. */
export function requireUser(ctx: AppContext) {
  const readUser = optionalUser(ctx);
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    await readUser(request);
    if (!request.userId) throw unauthenticated();
  };
}

/** The signed-in member's id inside a handler guarded by requireUser. */
export function currentUserId(request: FastifyRequest): string {
  if (!request.userId) throw unauthenticated();
  return request.userId;
}
