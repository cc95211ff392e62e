import { once } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import net, { type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

/** What a request arriving during a stop is told: another instance, or this one restarted, soon. */
export const DRAINING_RETRY_AFTER_SECONDS = 5;

/**
 * How long no connection may open and no request arrive, with none in flight, before the
 * listener closes. Until then connections are taken and answered 503: the kernel resets every
 * connection still queued on a listener that closes, so it closes only once clients are silent.
 */
export const DRAIN_QUIET_MS = 500;

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
  /**
   * Stops the server without resetting a connection: new requests answer 503 and every answer
   * closes its connection; the listener stays open until requests in flight are done and
   * clients have been silent DRAIN_QUIET_MS, then closes; idle kept-alive connections are
   * half-closed and left for their clients to close. Resolves when every connection is closed
   * or, at the latest, at `deadline` (a performance.now() time).
   */
  drain(deadline: number): Promise<void>;
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
  const connections = trackConnections(app.server);
  return {
    drain: async (deadline) => {
      draining = true;
      await connections.quiet(deadline);
      // net.Server's close, not http.Server's: the latter destroys idle connections at once.
      net.Server.prototype.close.call(app.server);
      connections.endIdle();
      await connections.allClosed(deadline);
    },
  };
}

/** Open connections, the requests in flight on each, and when a client last did anything. */
function trackConnections(server: Server) {
  const inFlight = new Map<Socket, number>();
  let lastActivity = performance.now();
  let changed = () => undefined as void;
  server.on('connection', (socket: Socket) => {
    lastActivity = performance.now();
    inFlight.set(socket, 0);
    socket.once('close', () => {
      inFlight.delete(socket);
      changed();
    });
  });
  server.on('request', (request: IncomingMessage, response) => {
    const socket = request.socket;
    lastActivity = performance.now();
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    response.once('close', () => {
      lastActivity = performance.now();
      if (inFlight.has(socket)) inFlight.set(socket, inFlight.get(socket)! - 1);
      changed();
    });
  });
  const busy = () => [...inFlight.values()].some((count) => count > 0);

  return {
    /** Resolves once nothing is in flight and clients have been silent DRAIN_QUIET_MS. */
    quiet: (deadline: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          const now = performance.now();
          if (now >= deadline) return resolve();
          const silentFor = now - lastActivity;
          if (busy() || silentFor < DRAIN_QUIET_MS) {
            const wait = busy() ? DRAIN_QUIET_MS : DRAIN_QUIET_MS - silentFor;
            return void setTimeout(check, Math.min(wait, deadline - now));
          }
          // Checked again just after the event loop's poll, which takes every connection the
          // kernel has queued: one that arrived meanwhile is seen here, not reset by the close.
          const decidedAt = lastActivity;
          setImmediate(() => (lastActivity === decidedAt && !busy() ? resolve() : check()));
        };
        check();
      }),
    /**
     * Half-closes every connection with nothing in flight: the client reads the end and closes
     * its side. Destroying it instead would reset a request the client sent in the meantime.
     */
    endIdle: () => {
      for (const [socket, count] of inFlight) if (count === 0) socket.end();
    },
    /** Resolves once every connection is closed, or at `deadline`. */
    allClosed: (deadline: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - performance.now()));
        changed = () => {
          if (inFlight.size > 0) return;
          clearTimeout(timer);
          resolve();
        };
        changed();
      }),
  };
}
