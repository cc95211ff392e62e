import type { FastifyRequest } from 'fastify';
import { unauthenticated } from '../../http/errors';

/** The signed-in member, or undefined (the contract's caller check reads them first). */
export const callerOf = (request: FastifyRequest): string | undefined => request.userId;

/** The signed-in member; 401 otherwise. */
export function signedInCaller(request: FastifyRequest): string {
  if (!request.userId) throw unauthenticated();
  return request.userId;
}
