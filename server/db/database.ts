import { AsyncResource } from 'node:async_hooks';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

/**
 * The query builder both drivers' databases and every transaction share: PgliteDatabase,
 * NodePgDatabase and PgTransaction all extend PgDatabase, and the result kind is left to the
 * driver. A `tx` is passed where a Db is taken, so one query serves inside a transaction and out.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Runs fn on one dedicated connection (session-level locks, multi-statement scripts).
   * The runner answers the rows of the script's last statement.
   */
  withSession<T>(fn: (run: ScriptRunner) => Promise<T>): Promise<T>;
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel`, from any connection or
   * process on the database, and `onListening` with false when notifications may have been
   * missed (the listening connection dropped; it is reopened) and true once they flow again.
   * Answers the function that stops listening.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  /** True when the database answers a query. */
  ping(): Promise<boolean>;
  /** Connections of the pool (PostgreSQL): open, idle, and callers waiting for one. */
  poolStats(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export interface ListenHandlers {
  onMessage(payload: string): void;
  onListening(listening: boolean): void;
}

export type ScriptRunner = (script: string) => Promise<Record<string, unknown>[]>;

/** How long one database call may take (PostgreSQL); unset: unbounded (scripts, tests). */
export interface DatabaseTimeouts {
  /** The server cancels a statement running longer (`statement_timeout`). */
  statementMs: number;
  /**
   * The client gives up on an answer that has not arrived (a partition, a server gone mute)
   * and closes the connection; longer than statementMs, so a slow statement is the server's.
   */
  queryMs: number;
}

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize?: number; timeouts?: DatabaseTimeouts }
  | { kind: 'pglite'; dataDir: string | undefined };

/** Opens PostgreSQL when a URL is given, else the embedded PGlite (in memory without dataDir). */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === 'postgres'
    ? openPostgres(target.url, target.poolSize, target.timeouts)
    : pgliteDatabase(await createPgliteClient(target.dataDir));
}

let compiledEngine: Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>> | undefined;

/**
 * PGlite's WebAssembly and file bundle, read and compiled once per process: a process that
 * opens several embedded databases (an API test worker opens one per file) pays for the
 * compile once, not at every open.
 */
function pgliteEngine(): Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>> {
  compiledEngine ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasm, bundle] = await Promise.all([
      readFile(path.join(dist, 'pglite.wasm')),
      readFile(path.join(dist, 'pglite.data')),
    ]);
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([bundle]) };
  })();
  return compiledEngine;
}

/**
 * An embedded PostgreSQL: on disk in dataDir, else in memory, started as a copy of `dump` (a
 * PGlite `dumpDataDir`) when one is given.
 */
export async function createPgliteClient(
  dataDir: string | undefined,
  dump?: Blob,
): Promise<PGlite> {
  const engine = await pgliteEngine();
  return dataDir
    ? PGlite.create({ dataDir, ...engine })
    : PGlite.create(dump ? { loadDataDir: dump, ...engine } : engine);
}

/** The Database over an open PGlite client; closing the Database closes the client. */
export function pgliteDatabase(client: PGlite): Database {
  const db = drizzlePglite({ client, schema });
  return {
    db,
    kind: 'pglite',
    withSession: (fn) =>
      fn(async (script) => {
        const results = await client.exec(script);
        return (results.at(-1)?.rows ?? []) as Record<string, unknown>[];
      }),
    listen: async (channel, handlers) => {
      // PGlite belongs to this process: its notifications never stop while it is open.
      const stop = await client.listen(channel, handlers.onMessage);
      handlers.onListening(true);
      return async () => {
        if (!client.closed) await stop();
      };
    },
    ping: () => pingWith(db),
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    close: () => client.close(),
  };
}

/**
 * A pool connection that bounds its queries and forgets the request that opened it.
 * - A query whose answer has not come within the query timeout may still be answered later,
 *   to the next query, or hold a transaction open: its connection is closed, so the pool drops
 *   it instead of lending it again.
 * - Its socket is opened outside the asking request's async context: otherwise every later
 *   event of a pooled connection (an error among them) would run as that long-finished request.
 */
class BoundedClient extends pg.Client {
  private static readonly outsideRequests = new AsyncResource('shinobu.database.connection');

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's overloads, passed through
  override connect(...args: any[]): any {
    return BoundedClient.outsideRequests.runInAsyncScope(() =>
      (super.connect as (...all: unknown[]) => unknown).apply(this, args),
    );
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's overloads, passed through
  override query(...args: any[]): any {
    const last: unknown = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (error: Error | null, result: unknown) => {
        if (error) this.closeAfterReadTimeout(error);
        (last as (error: Error | null, result: unknown) => void)(error, result);
      };
    }
    const answer = (super.query as (...all: unknown[]) => unknown).apply(this, args);
    if (answer instanceof Promise) {
      return answer.catch((error: unknown) => {
        this.closeAfterReadTimeout(error);
        throw error;
      });
    }
    return answer;
  }

  private closeAfterReadTimeout(error: unknown): void {
    if ((error as Error).message === 'Query read timeout') this.connection.stream.destroy();
  }
}

async function openPostgres(
  url: string,
  poolSize = 10,
  timeouts: DatabaseTimeouts | undefined,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5000,
    ...(timeouts
      ? { statement_timeout: timeouts.statementMs, query_timeout: timeouts.queryMs }
      : {}),
    Client: BoundedClient,
  });
  // A connection's network error must not crash the process, idle or lent to a caller (the
  // pool listens only while it is idle): the query in flight, if any, fails with it and its
  // request answers 503; the pool drops the connection when it comes back.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePostgres({ client: pool, schema });
  return {
    db,
    kind: 'postgres',
    // A connection of its own, without the timeouts: a migration may rightly take long.
    withSession: async (fn) => {
      const connection = new pg.Client({ connectionString: url });
      connection.on('error', () => undefined);
      await connection.connect();
      try {
        return await fn(async (script) => {
          const result = (await connection.query(script)) as pg.QueryResult | pg.QueryResult[];
          const last = Array.isArray(result) ? result.at(-1) : result;
          return (last?.rows ?? []) as Record<string, unknown>[];
        });
      } finally {
        await connection.end();
      }
    },
    listen: (channel, handlers) => listenOnPostgres(url, channel, handlers),
    ping: () => pingWith(db),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    close: () => pool.end(),
  };
}

/** How long a dropped listening connection waits before it is opened again. */
const RELISTEN_DELAY_MS = 1000;

/**
 * LISTEN holds its connection for good, so it gets its own client outside the pool; a dropped
 * one is reported and reopened until `stop`.
 */
async function listenOnPostgres(
  url: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    const dropped = () => {
      if (client !== next) return;
      client = undefined;
      handlers.onListening(false);
      void next.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect(), RELISTEN_DELAY_MS).unref();
    };
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onMessage(message.payload ?? '');
    });
    next.on('error', dropped);
    next.on('end', dropped);
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (client === next && !stopped) handlers.onListening(true);
    } catch {
      dropped();
    }
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const open = client;
    client = undefined;
    await open?.end().catch(() => undefined);
  };
}

async function pingWith(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
