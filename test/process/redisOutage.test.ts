/**
 * Redis stopped and started again under sign-in, session, search and upload-URL traffic, on
 * the real server process. Redis only shares counters between instances: while it is away
 * every call answers (none a 500, none left waiting: each request gives up after 1 s and none
 * does), the sign-in throttle and the rate limits still refuse past their limits, /readyz keeps
 * the instance in rotation, the outage is one JSON warning, and when Redis is back the counters
 * are in Redis again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, stopServer } from './serverProcess';

const REDIS_PORT = 6390;
const PORT = 4272;
const PREFIX = `shinobu-outage-${randomUUID()}:`;
const LOGIN_LIMIT = 6;
const SEARCH_LIMIT = 8;
/** No answer may take longer than this: the request is aborted and the test fails. */
const ANSWER_WITHIN_MS = 1000;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A private redis-server without persistence: a restart comes back empty. */
function startRedis(): { process: ChildProcess; exited: Promise<unknown> } {
  const child = spawn(
    '/usr/bin/redis-server',
    ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  cleanups.push(() => void child.kill('SIGKILL'));
  return { process: child, exited: new Promise((resolve) => child.on('exit', resolve)) };
}

/** Polls until `check` holds (a condition, not a clock). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe('Redis stopped and started under traffic', () => {
  it('answers every call within a second, keeps its limits, and shares counters again', async () => {
    const redis = startRedis();
    const inspector = new Redis({ port: REDIS_PORT, host: '127.0.0.1' });
    inspector.on('error', () => undefined);
    cleanups.push(() => void inspector.disconnect());
    await inspector.ping();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-redis-outage-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const server = startServer({
      DATA_DIR: dataDir,
      PORT: String(PORT),
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
      REDIS_PREFIX: PREFIX,
      LOGIN_MAX_ATTEMPTS_PER_CLIENT: String(LOGIN_LIMIT),
      RATE_LIMIT_SEARCH_PER_MINUTE: String(SEARCH_LIMIT),
    });
    cleanups.push(() => void server.child.kill('SIGKILL'));
    await server.waitForLog('Shinobu is ready');

    const call = async (url: string, init: RequestInit = {}) => {
      const answer = await fetch(`${server.baseUrl}${url}`, {
        ...init,
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
      });
      return { status: answer.status, body: await answer.text() };
    };
    const signIn = () =>
      call('/v1/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'nobody@example.jp', password: 'not the password' }),
      });
    const readiness = async () =>
      (JSON.parse((await call('/readyz')).body) as { checks: Record<string, string> }).checks.redis;
    const keys = async (kind: string) => inspector.keys(`${PREFIX}${kind}:*`);

    // Redis answers: sign-in and search are counted there.
    await until(async () => (await readiness()) === 'up');
    expect((await signIn()).status).toBe(401);
    expect((await call('/v1/user_search?q=a')).status).toBe(401);
    expect(await keys('throttle')).not.toEqual([]);
    expect(await keys('rate-limit')).not.toEqual([]);

    redis.process.kill('SIGTERM');
    await redis.exited;

    // Every kind of call that used Redis, together, while it is away.
    const [logins, searches, others] = await Promise.all([
      (async () => {
        const statuses = [];
        for (let n = 0; n <= LOGIN_LIMIT; n++) statuses.push((await signIn()).status);
        return statuses;
      })(),
      (async () => {
        const statuses = [];
        for (let n = 0; n <= SEARCH_LIMIT; n++)
          statuses.push((await call('/v1/user_search?q=a')).status);
        return statuses;
      })(),
      Promise.all(
        ['/api/auth/csrf', '/api/auth/session', '/v1/signed_url?method=PUT&image_name=a.png'].map(
          async (url) => (await call(url)).status,
        ),
      ),
    ]);
    // Counted in the database and in the process: the limits hold, from a fresh window.
    expect(logins).toEqual([...Array<number>(LOGIN_LIMIT).fill(401), 429]);
    expect(searches).toEqual([...Array<number>(SEARCH_LIMIT).fill(401), 429]);
    expect(others).toEqual([200, 200, 200]);
    // Still in rotation: Redis is named, the instance ready.
    await until(async () => (await readiness()) === 'degraded');
    expect((await call('/readyz')).status).toBe(200);

    startRedis();
    await until(async () => (await readiness()) === 'up');
    // The restarted Redis is empty: counters appear in it again.
    expect(await keys('throttle')).toEqual([]);
    expect((await signIn()).status).toBe(401);
    expect((await call('/v1/user_search?q=a')).status).toBe(401);
    expect(await keys('throttle')).not.toEqual([]);
    expect(await keys('rate-limit')).not.toEqual([]);

    expect(await stopServer(server)).toBe(0);
    const lines = server.stdout().trimEnd().split('\n');
    const records = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(records.filter((record) => record.msg.startsWith('Redis does not answer'))).toEqual([
      expect.objectContaining({ level: 40 }),
    ]);
    expect(records.filter((record) => record.msg.startsWith('Redis answers again'))).toHaveLength(
      1,
    );
    expect(records.filter((record) => record.level >= 50)).toEqual([]);
    expect(server.stderr()).not.toContain('ioredis');
  }, 180_000);
});
