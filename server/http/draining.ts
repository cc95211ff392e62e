import { once } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

/** What a request arriving during a stop is told: another instance, or this one restarted, soon. */
export const DRAINING_RETRY_AFTER_SECONDS = 5;

/**
 * A connection kept alive by a client and still idle this long into a stop is closed. A client
 * in the middle of its work sends its next request on it well within that time, gets the 503
 * below and closes the connection itself, so no request is ever written to a closed socket.
 */
export const IDLE_CONNECTION_GRACE_MS = 1000;

/** How long a refused request's body may take to arrive before the answer goes anyway. */
const REFUSED_BODY_WAIT_MS = 1000;

/**
 * Reads and drops what the client is still sending. The refusal closes the connection, and a
 * socket closed with bytes it never read is reset by the kernel: the client would meet
 * ECONNRESET instead of the 503.
 */
async function bodyRead(raw: IncomingMessage): Promise<void> {
  if (raw.complete) return;
  raw.resume();
  const waited = new AbortController();
  await Promise.race([
    once(raw, 'end'),
    once(raw, 'close'),
    sleep(REFUSED_BODY_WAIT_MS, undefined, { signal: waited.signal }),
  ]).catch(() => undefined);
  waited.abort();
}

export interface Draining {
  /** From now on: new requests answer 503, every answer closes its connection. */
  begin(): void;
}

/**
 * The server's side of a graceful stop. Requests in flight finish; a request that arrives
 * after the stop began answers 503 `{detail, code}` with `Retry-After` (a load balancer or
 * client sends it elsewhere, or again); every answer from then on says `Connection: close`.
 * Registered first, so a refused request costs no rate-limit count nor database call.
 */
export function installDraining(app: FastifyInstance): Draining {
  let draining = false;
  app.addHook('onRequest', async (request, reply) => {
    if (!draining) return;
    await bodyRead(request.raw);
    return reply
      .status(503)
      .header('retry-after', String(DRAINING_RETRY_AFTER_SECONDS))
      .send({ detail: 'the server is restarting; try again shortly', code: 'shutting_down' });
  });
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
  return { begin: () => void (draining = true) };
}

/**
 * Stops accepting connections, then waits until the clients have closed theirs or
 * IDLE_CONNECTION_GRACE_MS has passed. net.Server's close, not http.Server's: the latter also
 * drops idle kept-alive connections at once, racing a client that is sending on one (a reset).
 */
export async function stopAccepting(server: Server): Promise<void> {
  const closed = once(server, 'close');
  net.Server.prototype.close.call(server);
  await Promise.race([closed, sleep(IDLE_CONNECTION_GRACE_MS)]);
}
