import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/** Seconds a client is asked to wait before trying again while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Error codes of a database that cannot be reached or is shutting down (client or server side). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '57014', // query_canceled: a statement over statement_timeout
]);
/** SQLSTATE class 08: connection exceptions, whichever the subclass. */
const CONNECTION_EXCEPTION = /^08[0-9A-Z]{3}$/;
const UNREACHABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /cannot use a pool after calling end/i,
  /client has encountered a connection error/i,
  // The client's own bound (query_timeout) and a connection it closed because of it.
  /query read timeout/i,
  /not queryable/i,
];
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT', '53100' /* disk_full */]);

export interface FaultAnswer {
  status: 503 | 507;
  code: 'database_unavailable' | 'insufficient_storage';
  detail: string;
  headers: Record<string, string>;
}

/**
 * The answer for a fault outside the request's control, found anywhere in the error's cause
 * chain (drizzle wraps the driver's error): an unreachable database is 503 with Retry-After,
 * a full disk 507. Anything else is not a fault this knows (undefined).
 */
export function faultAnswer(error: unknown): FaultAnswer | undefined {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && NO_SPACE.has(code)) {
      return {
        status: 507,
        code: 'insufficient_storage',
        detail: 'the server has no room left to store this; nothing was stored',
        headers: {},
      };
    }
    if (
      (typeof code === 'string' && (UNREACHABLE.has(code) || CONNECTION_EXCEPTION.test(code))) ||
      (typeof message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message)))
    ) {
      return {
        status: 503,
        code: 'database_unavailable',
        detail: 'the database cannot be reached; try again shortly',
        headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
      };
    }
    if (cause === (cause as { cause?: unknown }).cause) break;
  }
  return undefined;
}

const requestContext = new AsyncLocalStorage<{ requestId: string }>();

/** The id of the request whose work is running now, if any (crash reports carry it). */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/** Runs each request's work in a context that remembers its id. */
export function trackRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    requestContext.run({ requestId: request.id }, done);
  });
}
