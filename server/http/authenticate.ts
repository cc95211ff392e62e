import type { FastifyReply, FastifyRequest } from 'fastify';
import { createAccessTokenVerifier, type AccessTokenVerifier } from '../domain/accessTokens';
import type { AppContext } from '../context';
import { onePerOwner } from '../onePerOwner';
import { unauthorized } from './errors';

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

/** One verifier per application, shared by all its routes (it remembers verified tokens). */
const verifierOf = onePerOwner((ctx: AppContext): AccessTokenVerifier =>
  createAccessTokenVerifier(ctx.config.authSecret, ctx.clock),
);

/**
 * The member an access token names, checked as every API call checks its bearer token;
 * undefined for a token that is expired, forged or not one. A member's page uses it for the
 * token its session cookie carries (server/routes/memberPage.ts).
 */
export async function accessTokenUserId(
  ctx: AppContext,
  token: string,
): Promise<string | undefined> {
  return (await verifierOf(ctx)(token))?.userId;
}

/** Sets request.userId when a valid bearer token is sent; leaves it unset otherwise. */
export function optionalUser(ctx: AppContext) {
  const verify = verifierOf(ctx);
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request);
    if (!token) return;
    const claims = await verify(token);
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
    if (!request.userId) throw unauthorized();
  };
}

/** The signed-in member's id inside a handler guarded by requireUser. */
export function currentUserId(request: FastifyRequest): string {
  if (!request.userId) throw unauthorized();
  return request.userId;
}
