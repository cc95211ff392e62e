import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { users } from '../../server/db/schema';
import { createSessionApi } from '../../src/services/api/session';
import { authSessionWith } from '../../src/services/session/liveSession';
import { createTestApp, type TestApp } from '../support/testApp';
import { registerActive } from './accountsSupport';
import { cookieKeepingFetch } from './httpClientHarness';

/**
 * The session protocol's codes, each read as a structured line (pino, field `code`) from
 * the server's own log output, captured where pino writes it (as test/api/endingnoteLogs
 * does): a synchronous write to file descriptor 1, or process.stdout under the runner.
 */
type LogLine = Record<string, unknown> & { level: number; code?: string; msg?: string };
const written: string[] = [];

function logLines(): LogLine[] {
  return written
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}
const withCode = (code: string) => logLines().filter((line) => line.code === code);

async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let tries = 0; tries < 200; tries += 1) {
    const found = probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}

let t: TestApp;
let origin: string;
beforeAll(async () => {
  const writeSync = fs.writeSync;
  vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: unknown, ...rest: never[]) => {
    if (fd !== 1) return writeSync(fd, data as string, ...rest);
    written.push(String(data));
    return String(data).length;
  }) as typeof fs.writeSync);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  t = await createTestApp({ LOG_LEVEL: 'info' });
  // Fastify answers the address it listens on: http://127.0.0.1:<port>.
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t.close();
});

describe('session protocol codes in the log', () => {
  it('NO_SECRET: a server started without AUTH_SECRET says so; one with it does not', async () => {
    // The app of this file was started without AUTH_SECRET (tests keep it in DATA_DIR).
    expect(withCode('NO_SECRET')).toEqual([expect.objectContaining({ level: 40 })]);
    const given = await createTestApp({
      LOG_LEVEL: 'info',
      AUTH_SECRET: randomBytes(32).toString('base64'),
    });
    await given.close();
    expect(withCode('NO_SECRET')).toHaveLength(1);
  });

  it('NO_SECRET: production without AUTH_SECRET refuses to start with a fatal line', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-no-secret-'));
    const env: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: 'production',
      SHINOBU_SKIP_BUILD: 'true',
      DATA_DIR: dataDir,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    };
    delete env.AUTH_SECRET;
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
    expect(exitCode).toBe(1);
    expect(stderr).toContain('AUTH_SECRET');
    const lines = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
    expect(lines).toContainEqual(expect.objectContaining({ level: 60, code: 'NO_SECRET' }));
  });

  it('INVALID_CALLBACK_URL_ERROR: every route that checks a callbackUrl logs a refused one', async () => {
    const routes = [
      '/api/auth/callback/credentials',
      '/api/auth/callback/activation',
      '/api/auth/signin/line',
      '/api/auth/signout',
    ];
    for (const [index, url] of routes.entries()) {
      const callbackUrl = `https://elsewhere.example/${index}`;
      const response = await t.request({
        method: 'POST',
        url,
        form: { csrfToken: 'x', callbackUrl, token: 't', email: 'a@example.com', json: 'true' },
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().code).toBe('INVALID_CALLBACK_URL_ERROR');
      expect(withCode('INVALID_CALLBACK_URL_ERROR'), url).toContainEqual(
        expect.objectContaining({
          level: 40,
          callbackUrl,
          reqId: response.headers['x-request-id'],
        }),
      );
    }
  });

  it('CALLBACK_CREDENTIALS_HANDLER_ERROR: a sign-in that breaks inside is logged with the error', async () => {
    const { body } = await registerActive(t);
    // A stored password hash the verifier cannot read (a damaged row): not a wrong password.
    await t.ctx.database.db
      .update(users)
      .set({ passwordHash: 'scrypt$x$8$1$c2FsdA$a2V5' })
      .where(eq(users.email, body.email));
    const session = createSessionApi({ origin, fetchImpl: cookieKeepingFetch() });
    const result = await session.signInWithCredentials(
      { username: body.email, password: body.password },
      '/dashboard',
    );
    expect(result).toMatchObject({ ok: false, status: 401, error: 'unexpected' });
    const [line] = withCode('CALLBACK_CREDENTIALS_HANDLER_ERROR');
    expect(line).toMatchObject({ level: 50, err: expect.objectContaining({ type: 'RangeError' }) });
    // A wrong password is an answer, not a handler error.
    const { body: other } = await registerActive(t);
    const wrong = await session.signInWithCredentials(
      { username: other.email, password: 'not-the-password-1' },
      '/dashboard',
    );
    expect(wrong.error).toBe('invalid_credentials');
    expect(withCode('CALLBACK_CREDENTIALS_HANDLER_ERROR')).toHaveLength(1);
  });

  it('MISSING_NEXTAUTH_API_ROUTE_ERROR: a session-layer action the server lacks', async () => {
    const response = await t.request({ method: 'GET', url: '/api/auth/verify-request?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('MISSING_NEXTAUTH_API_ROUTE_ERROR');
    expect(withCode('MISSING_NEXTAUTH_API_ROUTE_ERROR')).toContainEqual(
      expect.objectContaining({ level: 40, method: 'GET', path: '/api/auth/verify-request' }),
    );
    // Outside the session layer an unknown API path stays a plain not_found.
    const other = await t.request({ method: 'GET', url: '/api/nothing-here' });
    expect(other.json().code).toBe('not_found');
    expect(withCode('MISSING_NEXTAUTH_API_ROUTE_ERROR')).toHaveLength(1);
  });

  it('CLIENT_FETCH_ERROR: the session client that cannot read the session logs it, on the console and on the server', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const browserFetch = cookieKeepingFetch();
    // The network drops the session read (as offline does); every other call goes through.
    const offlineForSession: typeof fetch = (input, init) =>
      String(input).endsWith('/api/auth/session') && (init?.method ?? 'GET') === 'GET'
        ? Promise.reject(new TypeError('Failed to fetch'))
        : browserFetch(input, init);
    const actor = createActor(
      authSessionWith({
        session: createSessionApi({ origin, fetchImpl: offlineForSession }),
        watchTabs: () => () => undefined,
        announceChange: () => undefined,
        syncUser: () => undefined,
      }),
      { input: {} },
    );
    actor.start();
    await until(
      () => (actor.getSnapshot().matches('unauthenticated') ? true : undefined),
      'the session is unauthenticated',
    );
    const line = await until(() => withCode('CLIENT_FETCH_ERROR')[0], 'the client log line');
    expect(line).toMatchObject({ level: 50, source: 'client' });
    expect(String(line.details)).toContain('Failed to fetch');
    expect(consoleError).toHaveBeenCalledWith('CLIENT_FETCH_ERROR', expect.any(TypeError));
    actor.stop();
  });
});
