/**
 * PostgreSQL failing under write traffic, met by the real server process through a relay the
 * test controls: backends terminated mid-transaction, the database gone for 10 s, a 20 s
 * partition. Throughout, the process keeps serving, every answer is a success or a 503 with
 * Retry-After, no acknowledged write is lost, and writes succeed again as soon as the
 * database does; /metrics answers while it is away. And an error out of a pooled connection's
 * own events is not blamed on the finished request that happened to open it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { historyEntries } from '../../server/db/schema';
import { systemClock } from '../../server/lib/clock';
import { startDatabaseProxy, type DatabaseProxy } from '../support/databaseProxy';
import { startHistoryWriters, type HistoryWriters } from '../support/historyWriters';
import { createMember, type TestMember } from '../support/members';
import { createPostgresDatabase } from '../support/testDatabase';
import { startServer, stopServer, type ServerProcess } from './serverProcess';

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PROXY_PORT = 4260;
const SERVER_PORT = 4261;
const WRITERS = 6;
const AUTH_SECRET = 'database-faults-test-secret-0123456789abcdef';
const METRICS_TOKEN = 'database-faults-metrics-token-0123';
/** The first success after the database returns comes within this (what the issue asks). */
const RECOVERY_MS = 2000;
const PARTITION_MS = 20_000;
/**
 * Every answer comes within the query timeout (3 s here) or the connect timeout (5 s), however
 * long the fault lasts: none may take half the partition.
 */
const LONGEST_ANSWER_MS = PARTITION_MS / 2;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let proxy: DatabaseProxy;
let server: ServerProcess;
let direct: Database;
let members: TestMember[];
let databaseName: string;
let databaseUrl: string;

beforeAll(async () => {
  const database = await createPostgresDatabase(serverUrl, 'shinobu_faults');
  cleanups.push(() => database.drop());
  databaseName = new URL(database.url).pathname.slice(1);
  databaseUrl = database.url;
  proxy = await startDatabaseProxy(database.url, PROXY_PORT);
  cleanups.push(() => proxy.close());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-db-faults-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  server = startServer({
    DATA_DIR: dataDir,
    PORT: String(SERVER_PORT),
    PUBLIC_URL: `http://127.0.0.1:${SERVER_PORT}`,
    DATABASE_URL: proxy.url,
    AUTH_SECRET,
    METRICS_TOKEN,
    // Generous against a slow shared machine, short against a partition.
    DATABASE_STATEMENT_TIMEOUT_MS: '2000',
    DATABASE_QUERY_TIMEOUT_MS: '3000',
  });
  cleanups.push(() => void server.child.kill('SIGKILL'));
  await server.waitForLog('Shinobu is ready');
  direct = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 });
  cleanups.push(() => direct.close());
  const factory = {
    ctx: { database: direct },
    clock: systemClock(),
    config: { authSecret: AUTH_SECRET },
  };
  members = [];
  for (let i = 0; i < WRITERS; i++) members.push(await createMember(factory));
}, 180_000);

/** The members writing, against the server of this file. */
const startWriters = () =>
  startHistoryWriters(server.baseUrl, members, () => server.child.exitCode === null);

/** What every scenario must show once the writers have stopped. */
async function expectServedThroughout(writers: HistoryWriters, recoveredAt: number) {
  expect(server.child.exitCode, server.stderr()).toBeNull();
  const unexpected = writers.answers.filter(
    (answer) =>
      !(answer.status >= 200 && answer.status < 300) &&
      !(answer.status === 503 && answer.retryAfter && answer.code === 'database_unavailable'),
  );
  expect(unexpected).toEqual([]);
  expect(Math.max(...writers.answers.map((answer) => answer.tookMs))).toBeLessThan(
    LONGEST_ANSWER_MS,
  );
  const firstSuccess = writers.answers.find(
    (answer) => answer.at >= recoveredAt && answer.status < 300,
  );
  expect(firstSuccess).toBeDefined();
  expect(firstSuccess!.at - recoveredAt).toBeLessThan(RECOVERY_MS);
  const stored = await direct.db
    .select({ body: historyEntries.body })
    .from(historyEntries)
    .where(inArray(historyEntries.body, writers.acknowledged));
  const storedBodies = new Set(stored.map((row) => row.body));
  expect(writers.acknowledged.filter((body) => !storedBodies.has(body))).toEqual([]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL failing under write traffic', () => {
  it('backends terminated mid-transaction: the process serves on and loses nothing acknowledged', async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    cleanups.push(() => admin.end());
    const writers = startWriters();
    await writers.succeeded(WRITERS * 3);
    // A backend between two statements of a transaction, its connection lent to a request
    // and no query in flight: the case that used to end the process. Polled for until caught.
    const terminate = async (states: string[]) => {
      const { rows } = await admin.query<{ killed: boolean }>(
        `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
          WHERE datname = $1 AND state = ANY($2)`,
        [databaseName, states],
      );
      return rows.filter((row) => row.killed).length;
    };
    let inTransaction = 0;
    while (inTransaction < 3) {
      if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.stdout()}`);
      inTransaction += await terminate(['idle in transaction']);
    }
    await writers.succeeded(WRITERS);
    // Then every backend at once, whatever it is doing.
    const terminated = await terminate(['idle in transaction', 'active', 'idle']);
    const recoveredAt = performance.now();
    await writers.succeeded(WRITERS);
    await writers.stop();
    expect(terminated).toBeGreaterThan(0);
    await expectServedThroughout(writers, recoveredAt);
  }, 120_000);

  it('the database gone for 10 s: 503s with Retry-After, /metrics still answers, then success at once', async () => {
    const scrape = () =>
      fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    // One scrape with the database there, so the outbox gauges have a value to keep.
    expect((await scrape()).status).toBe(200);
    const writers = startWriters();
    await writers.succeeded(WRITERS * 3);
    await proxy.cut();
    await sleep(5_000);
    const during = await scrape();
    expect(during.status).toBe(200);
    const text = await during.text();
    const readAt = /^shinobu_mail_outbox_read_timestamp_seconds (\S+)$/m.exec(text)?.[1];
    expect(Number(readAt)).toBeGreaterThan(0);
    expect(text).toMatch(/^shinobu_mail_outbox_pending \d+$/m);
    await sleep(5_000);
    await proxy.restore();
    const recoveredAt = performance.now();
    await writers.succeeded(WRITERS);
    await writers.stop();
    expect(writers.answers.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);
    await expectServedThroughout(writers, recoveredAt);
  }, 120_000);

  it('a 20 s partition: writes answer 503 within the partition instead of hanging, then succeed at once', async () => {
    const writers = startWriters();
    await writers.succeeded(WRITERS * 3);
    proxy.partition();
    const partitionedAt = performance.now();
    await sleep(PARTITION_MS);
    await proxy.restore();
    const recoveredAt = performance.now();
    await writers.succeeded(WRITERS);
    await writers.stop();
    const answeredDuring = writers.answers.filter(
      (answer) => answer.at > partitionedAt && answer.at < recoveredAt,
    );
    expect(answeredDuring.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);
    await expectServedThroughout(writers, recoveredAt);
    // Nothing went uncaught from the first fault to the end (the stop is another file's test).
    await stopServer(server);
    const fatal = server
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"level":60'));
    expect(fatal).toEqual([]);
  }, 120_000);
});

describe('the fatal line of an error out of a pooled database connection', () => {
  it('names no request when none was running, not the one that opened the connection', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-db-faults-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const crashing = startServer({
      DATA_DIR: dataDir,
      PORT: String(SERVER_PORT + 1),
      PUBLIC_URL: `http://127.0.0.1:${SERVER_PORT + 1}`,
      DATABASE_URL: databaseUrl,
      AUTH_SECRET,
      NODE_OPTIONS: `--import ${path.resolve('test/process/fixtures/crashOnDatabaseSocketClose.mjs')}`,
      CRASH_WHEN_CLOSED_PORT: new URL(databaseUrl).port || '5432',
    });
    cleanups.push(() => void crashing.child.kill('SIGKILL'));
    await crashing.waitForLog('Shinobu is ready');
    // Requests at once: the pool opens new connections for them, within their work.
    const answers = await Promise.all(
      members.map((member) =>
        fetch(
          `${crashing.baseUrl}/v1/history/get_histories_by_memorial_page_id/${member.memorialPageId}`,
          { headers: { authorization: `Bearer ${member.token}` } },
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(members.map(() => 200));
    const requestIds = answers.map((answer) => answer.headers.get('x-request-id'));
    // Every request has ended; now their connections close.
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
      databaseName,
    ]);
    await admin.end();
    expect(await crashing.exited).toBe(1);
    const line = JSON.parse(
      await crashing.waitForLog('uncaught error; exiting so that a supervisor restarts the server'),
    ) as Record<string, unknown>;
    expect(line.err).toMatchObject({ message: 'a bug thrown when a database connection closed' });
    expect(requestIds).not.toContain(line.requestId);
    expect(line.requestId).toBeUndefined();
  }, 120_000);
});
