import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { MemorialDeps } from '../../domain/memorial/memorialDeps';
import { unauthenticated } from '../../http/errors';

export const memorialDeps = (ctx: AppContext): MemorialDeps => ({
  db: ctx.database.db,
  store: ctx.store,
  clock: ctx.clock,
});

/** The signed-in member, or undefined (the contract's caller check reads them first). */
export const callerOf = (request: FastifyRequest): string | undefined => request.userId;

/** The signed-in member; 401 otherwise. */
export function signedInCaller(request: FastifyRequest): string {
  if (!request.userId) throw unauthenticated();
  return request.userId;
}
