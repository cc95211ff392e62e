/**
 * Deploys stop `npm start` itself (npm, then the server it runs) with SIGTERM while members
 * write: sent to npm's process alone, as a container runtime signals its first process, and
 * to the whole process group, as a terminal or systemd does. Some clients keep their
 * connections alive (fetch); others open a new connection for every request, as a proxy may,
 * which is what meets a listener closing with connections still queued in the kernel. On
 * PGlite and PostgreSQL, twenty stops each: the server itself logs the signal, every stop ends
 * by itself with status 0 (the time limit exits 1), no client meets a reset or cut connection
 * (an answer is 2xx or a 503 `{detail, code}` with Retry-After; after the stop, connections
 * are refused), nothing of the group is left, and every acknowledged write is there after
 * the next start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { registrationBody } from '../api/accountsSupport';
import { dataDirWithStore } from '../support/migratedStore';
import { createPostgresDatabase } from '../support/testDatabase';

/** Stops per database, alternately to npm's process and to its group. */
const STOPS = 20;
const KEPT_ALIVE_WRITERS = 4;
const NEW_CONNECTION_WRITERS = 2;
/** Acknowledged writes of a run before its stop is sent, every writer having had one. */
const WRITES_BEFORE_STOP = 8;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface NpmStart {
  npm: ChildProcess;
  /** The first line of the log that contains `text`. */
  waitForLog(text: string): Promise<string>;
  exited: Promise<number | null>;
  /** Every process that held npm's output has ended: the server and the loader's esbuild too. */
  closed: Promise<void>;
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
  const closed = new Promise<void>((resolve) => npm.on('close', () => resolve()));
  return {
    npm,
    exited,
    closed,
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

/** Why a request failed, as its lowest cause names it (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET). */
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

/** An answer, or the code of the failure that stood in for one. */
type Outcome =
  | { status: number; retryAfter: string | null; body: Record<string, unknown> }
  | { failure: string };

/** One POST on a connection fetch keeps alive for the next. */
async function postKeptAlive(url: string, headers: Record<string, string>, body: string) {
  try {
    const answer = await fetch(url, { method: 'POST', headers, body });
    const parsed = (await answer.json()) as Record<string, unknown>;
    return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: parsed };
  } catch (error) {
    return { failure: failureCode(error) };
  }
}

/** One POST on a connection of its own, closed after the answer. */
function postOnNewConnection(url: string, headers: Record<string, string>, body: string) {
  return new Promise<Outcome>((resolve) => {
    const request = http.request(url, { method: 'POST', headers, agent: false }, (answer) => {
      let text = '';
      answer.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      answer.on('error', (error) => resolve({ failure: failureCode(error) }));
      answer.on('end', () => {
        const retryAfter = answer.headers['retry-after'] ?? null;
        resolve({ status: answer.statusCode!, retryAfter, body: JSON.parse(text) });
      });
    });
    request.on('error', (error) => resolve({ failure: failureCode(error) }));
    request.end(body);
  });
}

/** What one run's writers met; a waiter is told of each change. */
class Tally {
  acknowledged: string[] = [];
  drained = 0;
  refused = 0;
  /** Anything but a 2xx, a drain's 503 or a refused connection: must stay empty. */
  faults: string[] = [];
  writersAcknowledged = new Set<number>();
  private changed = () => undefined as void;

  note(writer: number, outcome: Outcome): 'again' | 'done' {
    const result = this.classify(writer, outcome);
    this.changed();
    return result;
  }

  private classify(writer: number, outcome: Outcome): 'again' | 'done' {
    if ('failure' in outcome) {
      if (outcome.failure !== 'ECONNREFUSED') this.faults.push(outcome.failure);
      else this.refused++;
      return 'done';
    }
    const { status, retryAfter, body } = outcome;
    if (status === 201) {
      this.acknowledged.push(body.id as string);
      this.writersAcknowledged.add(writer);
      return 'again';
    }
    if (status === 503 && retryAfter && body.code && body.detail) {
      // A client waits Retry-After before it tries again: this server is gone by then.
      this.drained++;
      return 'done';
    }
    this.faults.push(`${status} ${JSON.stringify(body)}`);
    return 'done';
  }

  /** Resolves once `condition` holds, checked after every outcome. */
  until(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      this.changed = () => {
        if (condition()) resolve();
      };
      this.changed();
    });
  }
}

/** One writer: history entries until the server asks it to come back later, or is gone. */
async function write(
  writer: number,
  post: typeof postKeptAlive,
  baseUrl: string,
  token: string,
  member: Member,
  tally: Tally,
) {
  const url = `${baseUrl}/v1/history/memorial_page_id/${member.memorialPageId}/history`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  for (let n = 0; ; n++) {
    const body = JSON.stringify({
      occurred_on: '2012-04-01',
      body: `entry ${n}`,
      image_name: null,
    });
    if (tally.note(writer, await post(url, headers, body)) === 'done') return;
  }
}

async function stopsUnderLoad(port: number, databaseUrl: string | undefined) {
  // On PGlite the store begins migrated: the first start is not what this tests.
  const dataDir = databaseUrl
    ? mkdtempSync(path.join(tmpdir(), 'shinobu-stops-'))
    : dataDirWithStore(inject('migratedPgdata'), 'shinobu-stops-');
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    SHUTDOWN_TIMEOUT_MS: '5000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const runs: Tally[] = [];
  let member: Member | undefined;
  // One sign-in serves every run: the signing key lives in DATA_DIR, the token 15 minutes.
  let token: string | undefined;
  for (let stop = 0; stop < STOPS; stop++) {
    const server = npmStart(env);
    await server.waitForLog('Shinobu is ready');
    member ??= await registerMember(baseUrl, server);
    token ??= await signIn(baseUrl, member);
    const tally = new Tally();
    runs.push(tally);
    const posts = [
      ...Array<typeof postKeptAlive>(KEPT_ALIVE_WRITERS).fill(postKeptAlive),
      ...Array<typeof postKeptAlive>(NEW_CONNECTION_WRITERS).fill(postOnNewConnection),
    ];
    const writers = posts.map((post, writer) =>
      write(writer, post, baseUrl, token!, member!, tally),
    );
    // The stop meets work in hand: every writer of this run is writing.
    await tally.until(
      () =>
        tally.faults.length > 0 ||
        (tally.writersAcknowledged.size === posts.length &&
          tally.acknowledged.length >= WRITES_BEFORE_STOP),
    );
    const pgid = server.npm.pid!;
    // Even stops: npm's process alone; odd: the whole group.
    process.kill(stop % 2 === 0 ? pgid : -pgid, 'SIGTERM');
    expect(await server.exited).toBe(0);
    await Promise.all(writers);
    await server.closed;
    // The server took the signal itself, not only npm.
    expect(await server.waitForLog('stopping: finishing in-flight requests')).toContain(
      '"signal":"SIGTERM"',
    );
    expect({ stop, faults: tally.faults }).toEqual({ stop, faults: [] });
  }
  const acknowledged = runs.flatMap((run) => run.acknowledged);

  const server = npmStart(env);
  await server.waitForLog('Shinobu is ready');
  const history = await fetch(
    `${baseUrl}/v1/history/get_histories_by_memorial_page_id/${member!.memorialPageId}`,
    { headers: { authorization: `Bearer ${token!}` } },
  );
  const stored = new Set(((await history.json()) as { id: string }[]).map((entry) => entry.id));
  expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  expect(stored.size).toBe(acknowledged.length);
  process.kill(server.npm.pid!, 'SIGTERM');
  expect(await server.exited).toBe(0);
  return {
    acknowledged: acknowledged.length,
    drained: runs.reduce((sum, run) => sum + run.drained, 0),
    refused: runs.reduce((sum, run) => sum + run.refused, 0),
  };
}

// The two databases side by side: a run is mostly waiting on its own server.
describe.concurrent('SIGTERM through npm start under write load', () => {
  it('on PGlite: each stop drains and exits 0, no reset, nothing acknowledged lost', async () => {
    const seen = await stopsUnderLoad(4270, undefined);
    expect(seen.acknowledged).toBeGreaterThanOrEqual(STOPS * WRITES_BEFORE_STOP);
    // The drain answered: clients were told 503, not only refused.
    expect(seen.drained).toBeGreaterThan(0);
  }, 600_000);

  it('on PostgreSQL: the same', async () => {
    const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const database = await createPostgresDatabase(serverUrl);
    cleanups.push(() => database.drop());
    const seen = await stopsUnderLoad(4271, database.url);
    expect(seen.acknowledged).toBeGreaterThanOrEqual(STOPS * WRITES_BEFORE_STOP);
    expect(seen.drained).toBeGreaterThan(0);
  }, 600_000);
});
