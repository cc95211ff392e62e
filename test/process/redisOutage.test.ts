/**
 * Redis failing under sign-in and search traffic, on the real server process. Redis only
 * shares counters between instances. Traffic runs without a pause from before the first fault
 * to after the last: Redis killed outright (its connections dropped mid-command), started
 * again empty, then frozen (SIGSTOP: connections stay open and nothing answers, as in a
 * network partition) and thawed. Throughout, every call answers within a second (a call left
 * waiting longer is aborted and counted against the test; one call of each kind before the
 * traffic is given longer, as a cold process compiles its code), none is a 500, the sign-in
 * throttle and the search rate limit refuse past their limits in every phase, and sign-in
 * never gets more than one cap's worth per counting store it meets (the Redis window, the
 * database's, the restarted Redis's). /readyz keeps the instance in rotation, each outage is
 * one JSON warning, and when Redis is back the counters are in Redis again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { dataDirWithStore } from '../support/migratedStore';
import { startServer, stopServer } from './serverProcess';

const REDIS_PORT = 6390;
const PORT = 4272;
const PREFIX = `shinobu-outage-${randomUUID()}:`;
const LOGIN_LIMIT = 6;
const SEARCH_LIMIT = 8;
/** No answer may take longer than this: the request is aborted and the test fails. */
const ANSWER_WITHIN_MS = 1000;
/** The bound of each kind's first call, before the traffic: the process's code is still cold. */
const COLD_ANSWER_WITHIN_MS = 30_000;

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
  cleanups.push(() => {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  });
  return { process: child, exited: new Promise((resolve) => child.on('exit', resolve)) };
}

/** Polls until `check` holds (a condition, not a clock). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

type Kind = 'sign-in' | 'search' | 'session' | 'upload URL';
type Phase = 'up' | 'killed' | 'restarted' | 'frozen' | 'thawed';

interface Answer {
  kind: Kind;
  phase: Phase;
  /** The HTTP status; 0 when no answer came within ANSWER_WITHIN_MS or the call failed. */
  status: number;
  failure?: string;
}

describe('Redis killed, restarted, frozen and thawed under traffic', () => {
  it('answers every call within a second, keeps its limits, and shares counters again', async () => {
    let redis = startRedis();
    const inspector = new Redis({ port: REDIS_PORT, host: '127.0.0.1' });
    inspector.on('error', () => undefined);
    cleanups.push(() => void inspector.disconnect());
    await inspector.ping();
    const dataDir = dataDirWithStore(inject('migratedPgdata'), 'shinobu-redis-outage-');
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const server = startServer({
      DATA_DIR: dataDir,
      PORT: String(PORT),
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
      REDIS_PREFIX: PREFIX,
      LOGIN_MAX_ATTEMPTS_PER_CLIENT: String(LOGIN_LIMIT),
      RATE_LIMIT_SEARCH_PER_MINUTE: String(SEARCH_LIMIT),
      // The session layer's and upload URLs' calls are counted too, and always let through.
      RATE_LIMIT_AUTH_PER_MINUTE: '1000000',
      RATE_LIMIT_UPLOAD_PER_HOUR: '1000000',
    });
    cleanups.push(() => void server.child.kill('SIGKILL'));
    await server.waitForLog('Shinobu is ready');

    // Until every kind of call has been answered once, a call may take what a cold process
    // takes to compile its code on a busy machine: the bound under test is Redis's faults'.
    let answerWithinMs = COLD_ANSWER_WITHIN_MS;
    const call = async (url: string, init: RequestInit = {}) => {
      const answer = await fetch(`${server.baseUrl}${url}`, {
        ...init,
        signal: AbortSignal.timeout(answerWithinMs),
      });
      return { status: answer.status, body: await answer.text() };
    };
    const readiness = async () =>
      (JSON.parse((await call('/readyz')).body) as { checks: Record<string, string> }).checks.redis;
    const keys = async (kind: string) => inspector.keys(`${PREFIX}${kind}:*`);

    let phase: Phase = 'up';
    let running = true;
    const answers: Answer[] = [];
    const requests: Record<Kind, () => Promise<{ status: number }>> = {
      'sign-in': () =>
        call('/v1/login', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            username: 'nobody@example.jp',
            password: 'not the password',
          }),
        }),
      search: () => call('/v1/user_search?q=a'),
      // The session layer and upload URLs: rate-limited routes that count in Redis too.
      session: () => call(answers.length % 2 ? '/api/auth/csrf' : '/api/auth/session'),
      'upload URL': () => call('/v1/signed_url?method=PUT&image_name=a.png'),
    };
    const loop = async (kind: Kind) => {
      while (running) {
        const at = phase;
        try {
          const { status } = await requests[kind]();
          answers.push({ kind, phase: at, status });
        } catch (error) {
          answers.push({ kind, phase: at, status: 0, failure: String(error) });
        }
      }
    };
    const refusedIn = (kind: Kind, at: Phase) =>
      answers.some(
        (answer) => answer.kind === kind && answer.phase === at && answer.status === 429,
      );
    /** Both limits have refused in this phase, counted wherever this phase counts. */
    const bothRefused = (at: Phase) => refusedIn('sign-in', at) && refusedIn('search', at);
    for (const request of Object.values(requests)) await request();
    answerWithinMs = ANSWER_WITHIN_MS;
    const traffic = Promise.all(
      (['sign-in', 'sign-in', 'search', 'search', 'session', 'upload URL'] as const).map(loop),
    );

    // Redis answers: the limits are reached, counted there.
    await until(async () => (await readiness()) === 'up');
    await until(() => bothRefused('up'));
    expect(await keys('throttle')).not.toEqual([]);
    expect(await keys('rate-limit')).not.toEqual([]);

    // Killed outright: counted in the database and in the process, from fresh windows.
    redis.process.kill('SIGKILL');
    await redis.exited;
    phase = 'killed';
    await until(async () => (await readiness()) === 'degraded');
    await until(() => bothRefused('killed'));
    // Still in rotation: Redis is named, the instance ready.
    expect((await call('/readyz')).status).toBe(200);

    // Back, and empty: counters appear in it again.
    redis = startRedis();
    await until(async () => (await readiness()) === 'up');
    phase = 'restarted';
    await until(() => bothRefused('restarted'));
    expect(await keys('throttle')).not.toEqual([]);
    expect(await keys('rate-limit')).not.toEqual([]);

    // Frozen: its connections stay open and nothing answers.
    redis.process.kill('SIGSTOP');
    phase = 'frozen';
    await until(async () => (await readiness()) === 'degraded');
    await until(() => bothRefused('frozen'));
    expect((await call('/readyz')).status).toBe(200);

    redis.process.kill('SIGCONT');
    await until(async () => (await readiness()) === 'up');
    phase = 'thawed';
    await until(() => bothRefused('thawed'));
    running = false;
    await traffic;

    const allowed: Record<Kind, number[]> = {
      'sign-in': [401, 429],
      search: [401, 429],
      session: [200],
      // Its own per-client limit, a fixed number of calls.
      'upload URL': [200, 429],
    };
    expect(answers.filter((answer) => !allowed[answer.kind].includes(answer.status))).toEqual([]);
    // One cap's worth in Redis, one in the database (its window still open when Redis froze),
    // one in the restarted Redis; the thawed Redis still holds its count.
    const signInsLetThrough = answers.filter(
      (answer) => answer.kind === 'sign-in' && answer.status === 401,
    ).length;
    expect(signInsLetThrough).toBeLessThanOrEqual(3 * LOGIN_LIMIT);

    expect(await stopServer(server)).toBe(0);
    const lines = server.stdout().trimEnd().split('\n');
    const records = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    // One warning for each outage, one line for each return.
    expect(records.filter((record) => record.msg.startsWith('Redis does not answer'))).toEqual([
      expect.objectContaining({ level: 40 }),
      expect.objectContaining({ level: 40 }),
    ]);
    expect(records.filter((record) => record.msg.startsWith('Redis answers again'))).toHaveLength(
      2,
    );
    expect(records.filter((record) => record.level >= 50)).toEqual([]);
    expect(server.stderr()).not.toContain('ioredis');
  }, 180_000);
});
