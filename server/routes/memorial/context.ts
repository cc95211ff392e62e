import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { MemorialDeps } from '../../domain/memorial/memorialDeps';
import { unauthenticated } from '../../http/errors';

export const memorialDeps = (ctx: AppContext): MemorialDeps => ({
  db: ctx.database.db,
  store: ctx.store,
  clock: ctx.clock,
});

/** The signed-in member, or undefined (the routes run optionalUser first). */
export const callerOf = (request: FastifyRequest): string | undefined => request.userId;

/** The signed-in member; 401 otherwise. */
export function signedInCaller(request: FastifyRequest): string {
  if (!request.userId) throw unauthenticated();
  return request.userId;
}

/** Ids are checked by the domain (a malformed id is simply not found). */
export const pageParams = z.object({ id: z.string().max(100) });
