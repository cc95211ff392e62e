/**
 * Deploys stop `npm start` itself (npm, then the server it runs) with SIGTERM while members
 * write: sent to npm's process alone, as a container runtime signals its first process, and
 * to the whole process group, as a terminal or systemd does. On PGlite and PostgreSQL, every
 * stop ends by itself with status 0 before SHUTDOWN_TIMEOUT_MS, no client meets a reset
 * connection (an answer is 2xx or a 503 with Retry-After; after the stop, connections are
 * refused), and every acknowledged write is there after the next start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { registrationBody } from '../api/accountsSupport';
import { createPostgresDatabase } from '../support/testDatabase';

/** Stops per database, alternately to npm's process and to its group. */
const STOPS = 10;
const WRITERS = 6;
/** Acknowledged writes of a run before its stop is sent, so that the stop meets work in hand. */
const WRITES_BEFORE_STOP = 12;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface NpmStart {
  npm: ChildProcess;
  /** The first line of the log that contains `text`. */
  waitForLog(text: string): Promise<string>;
  exited: Promise<number | null>;
}

/** `npm start` in its own process group, as a container or a service manager runs it. */
function npmStart(env: Record<string, string>): NpmStart {
  const npm = spawn('npm', ['start', '--silent'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SHINOBU_SKIP_BUILD: 'true',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  cleanups.push(() => {
    if (npm.exitCode === null) process.kill(-npm.pid!, 'SIGKILL');
  });
  let log = '';
  let stderr = '';
  const waiters: { text: string; resolve: (line: string) => void }[] = [];
  npm.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    log += chunk;
    for (const waiter of [...waiters]) {
      const line = log.split('\n').find((candidate) => candidate.includes(waiter.text));
      if (line) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => npm.on('exit', resolve));
  return {
    npm,
    exited,
    waitForLog: (text) => {
      const seen = log.split('\n').find((line) => line.includes(text));
      if (seen) return Promise.resolve(seen);
      return Promise.race([
        new Promise<string>((resolve) => waiters.push({ text, resolve })),
        exited.then((code) => {
          throw new Error(`npm start exited (${code}) before logging "${text}":\n${stderr}`);
        }),
      ]);
    },
  };
}

/** Whether any process of the group is left. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Why a fetch failed, as its lowest cause names it (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET). */
function failureCode(error: unknown): string {
  let cause = error as { code?: string; cause?: unknown; message?: string };
  while (cause.cause) cause = cause.cause as typeof cause;
  return cause.code ?? cause.message ?? String(error);
}

interface Member {
  email: string;
  password: string;
  memorialPageId: string;
}

async function signIn(baseUrl: string, member: Member): Promise<string> {
  const answer = await fetch(`${baseUrl}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: member.email, password: member.password }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { accessToken: string }).accessToken;
}

/** Registers and activates a member through the API, the activation link read from the log. */
async function registerMember(baseUrl: string, server: NpmStart): Promise<Member> {
  const body = registrationBody();
  const registered = await fetch(`${baseUrl}/v1/user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(registered.status).toBe(202);
  const line = JSON.parse(await server.waitForLog('"link":')) as { link: string };
  const link = new URL(line.link);
  const [token, email] = ['token', 'email'].map((name) => link.searchParams.get(name)!);
  const activated = await fetch(
    `${baseUrl}/v1/user/confirm/${encodeURIComponent(token!)}/${encodeURIComponent(email!)}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: body.password }),
    },
  );
  expect(activated.status).toBe(200);
  const { memorialPageId } = (await activated.json()) as { memorialPageId: string };
  return { email: body.email, password: body.password, memorialPageId };
}

interface Tally {
  acknowledged: string[];
  drained: number;
  /** Anything but a 2xx, a drain's 503 or a refused connection: must stay empty. */
  faults: string[];
}

/** One writer: history entries until the server asks it to come back later, or is gone. */
async function write(baseUrl: string, token: string, member: Member, tally: Tally) {
  for (let n = 0; ; n++) {
    let answer: Response;
    try {
      answer = await fetch(
        `${baseUrl}/v1/history/memorial_page_id/${member.memorialPageId}/history`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ occurred_on: '2012-04-01', body: `entry ${n}`, image_name: null }),
        },
      );
    } catch (error) {
      const code = failureCode(error);
      if (code === 'ECONNREFUSED') return;
      tally.faults.push(code);
      return;
    }
    const body = (await answer.json()) as { id?: string; code?: string; detail?: string };
    if (answer.status === 201) {
      tally.acknowledged.push(body.id!);
    } else if (answer.status === 503 && answer.headers.get('retry-after') && body.code) {
      // A client waits Retry-After before it tries again: this server is gone by then.
      tally.drained++;
      return;
    } else {
      tally.faults.push(`${answer.status} ${JSON.stringify(body)}`);
    }
  }
}

async function stopsUnderLoad(port: number, databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-stops-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    SHUTDOWN_TIMEOUT_MS: '5000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const tally: Tally = { acknowledged: [], drained: 0, faults: [] };
  let member: Member | undefined;
  for (let stop = 0; stop < STOPS; stop++) {
    const server = npmStart(env);
    await server.waitForLog('Shinobu is ready');
    member ??= await registerMember(baseUrl, server);
    const token = await signIn(baseUrl, member);
    const before = tally.acknowledged.length;
    const writers = Array.from({ length: WRITERS }, () => write(baseUrl, token, member!, tally));
    while (tally.acknowledged.length < before + WRITES_BEFORE_STOP && tally.faults.length === 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const pgid = server.npm.pid!;
    // Even stops: npm's process alone; odd: the whole group.
    process.kill(stop % 2 === 0 ? pgid : -pgid, 'SIGTERM');
    expect(await server.exited).toBe(0);
    await Promise.all(writers);
    // Nothing left behind but, for a moment, the TypeScript loader's esbuild service.
    while (groupAlive(pgid)) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(tally.faults).toEqual([]);

  const server = npmStart(env);
  await server.waitForLog('Shinobu is ready');
  const history = await fetch(
    `${baseUrl}/v1/history/get_histories_by_memorial_page_id/${member!.memorialPageId}`,
    { headers: { authorization: `Bearer ${await signIn(baseUrl, member!)}` } },
  );
  const stored = new Set(((await history.json()) as { id: string }[]).map((entry) => entry.id));
  expect(tally.acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  expect(stored.size).toBe(tally.acknowledged.length);
  process.kill(server.npm.pid!, 'SIGTERM');
  expect(await server.exited).toBe(0);
  return tally;
}

describe('SIGTERM through npm start under write load', () => {
  it('on PGlite: each stop drains and exits 0, no reset, nothing acknowledged lost', async () => {
    const tally = await stopsUnderLoad(4270, undefined);
    expect(tally.acknowledged.length).toBeGreaterThanOrEqual(STOPS * WRITES_BEFORE_STOP);
  }, 600_000);

  it('on PostgreSQL: the same', async () => {
    const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const database = await createPostgresDatabase(serverUrl);
    cleanups.push(() => database.drop());
    const tally = await stopsUnderLoad(4271, database.url);
    expect(tally.acknowledged.length).toBeGreaterThanOrEqual(STOPS * WRITES_BEFORE_STOP);
  }, 600_000);
});
