/**
 * Faults met from outside by the real `npm start` process: a SIGKILL and an immediate restart,
 * a stop that cannot finish in time, an uncaught exception, an unreachable PostgreSQL and a
 * full disk. Each answers clearly and leaves nothing half-written.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { dataDirWithStore } from '../support/migratedStore';
import { startSmtpSink } from '../support/smtpSink';
import { createPostgresDatabase } from '../support/testDatabase';
import { startServer, stopServer, type ServerProcess } from './serverProcess';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A ready server that the end of the file stops if its test did not. */
async function readyServer(env: Record<string, string>): Promise<ServerProcess> {
  const server = startServer(env);
  cleanups.push(() => void server.child.kill('SIGKILL'));
  await server.waitForLog('Shinobu is ready');
  return server;
}

function newDataDir(): string {
  const dir = dataDirWithStore(inject('migratedPgdata'), 'shinobu-faults-');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An upload URL as the registration form gets one: without an account, from the server. */
async function signedUpload(baseUrl: string): Promise<{ url: string; imageName: string }> {
  const answer = await fetch(`${baseUrl}/v1/signed_url?method=PUT&image_name=fault.png`);
  return (await answer.json()) as { url: string; imageName: string };
}

/** Every regular file under `dir`. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

describe('a process killed with SIGKILL', () => {
  it('is restarted at once on the same DATA_DIR', async () => {
    const dataDir = newDataDir();
    const env = { DATA_DIR: dataDir, PORT: '4245', PUBLIC_URL: 'http://127.0.0.1:4245' };
    const killed = await readyServer(env);
    killed.child.kill('SIGKILL');
    await killed.exited;
    // The killed process left its lock behind, fresh or stale by the time the restart looks.
    const restarted = await readyServer(env);
    expect(restarted.stderr()).toContain('is gone; taking its lock');
    expect((await fetch(`${restarted.baseUrl}/healthz`)).status).toBe(200);
    expect(await stopServer(restarted)).toBe(0);
  }, 180_000);
});

describe('stopping', () => {
  it('gives in-flight requests SHUTDOWN_TIMEOUT_MS, then exits non-zero', async () => {
    const dataDir = newDataDir();
    const server = await readyServer({
      DATA_DIR: dataDir,
      PORT: '4246',
      PUBLIC_URL: 'http://127.0.0.1:4246',
      SHUTDOWN_TIMEOUT_MS: '1500',
      // The arrival of a request is logged at debug: the test waits for it.
      LOG_LEVEL: 'debug',
    });
    const upload = await signedUpload(server.baseUrl);
    const url = new URL(upload.url);
    // An upload that never sends its last byte keeps a request in flight for ever.
    const request = http.request(url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png', 'content-length': '100' },
    });
    request.on('error', () => undefined);
    request.write(Buffer.alloc(10));
    await server.waitForLog(`"url":"/files/${upload.imageName}?`);
    const stopAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(1);
    const took = Date.now() - stopAt;
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(6000);
    expect(server.stdout()).toContain('stopping took too long; exiting');
    request.destroy();
  }, 180_000);

  it('logs an uncaught exception with its request id and exits non-zero', async () => {
    const server = startServer({
      DATA_DIR: newDataDir(),
      PORT: '4247',
      PUBLIC_URL: 'http://127.0.0.1:4247',
      NODE_OPTIONS: `--import ${path.resolve('test/process/fixtures/crashOnRequest.mjs')}`,
    });
    await server.waitForLog('Shinobu is ready');
    const response = await fetch(`${server.baseUrl}/healthz?crash`);
    const requestId = response.headers.get('x-request-id');
    expect(await server.exited).toBe(1);
    const line = JSON.parse(
      await server.waitForLog('uncaught error; exiting so that a supervisor restarts the server'),
    ) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 60,
      requestId,
      err: { message: 'a bug thrown outside the request' },
    });
  }, 180_000);
});

describe('an unreachable PostgreSQL', () => {
  const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

  it('answers 503 with detail and Retry-After on every call, and recovers by itself', async () => {
    const database = await createPostgresDatabase(serverUrl);
    cleanups.push(() => database.drop());
    const target = new URL(database.url);
    // A TCP relay in front of PostgreSQL that the test cuts and mends.
    const sockets = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    const listen = () => new Promise<void>((resolve) => relay.listen(4248, '127.0.0.1', resolve));
    await listen();
    const viaRelay = new URL(database.url);
    viaRelay.host = '127.0.0.1:4248';
    const server = await readyServer({
      DATA_DIR: newDataDir(),
      PORT: '4249',
      PUBLIC_URL: 'http://127.0.0.1:4249',
      DATABASE_URL: viaRelay.toString(),
    });
    const resetRequest = () =>
      fetch(`${server.baseUrl}/v1/password_reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'someone@example.jp' }),
      });
    expect((await resetRequest()).status).toBe(202);

    // close() calls back only once every connection has ended: the pool's are cut first.
    const closed = new Promise<void>((resolve) => relay.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
    for (const call of [resetRequest, resetRequest]) {
      const response = await call();
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toMatchObject({
        code: 'database_unavailable',
        detail: expect.stringContaining('database'),
      });
    }
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ checks: { database: 'down', objectStore: 'up' } });

    await listen();
    expect((await resetRequest()).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    expect(await stopServer(server)).toBe(0);
    relay.close();
  }, 180_000);
});

describe('a mail relay or Redis that does not answer', () => {
  it('is named by /readyz: the relay down, Redis degraded and the instance still ready', async () => {
    const sink = await startSmtpSink();
    cleanups.push(() => sink.close());
    // A port nobody listens on: Redis configured but gone.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const redisPort = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const server = await readyServer({
      DATA_DIR: newDataDir(),
      PORT: '4246',
      PUBLIC_URL: 'http://127.0.0.1:4246',
      SMTP_URL: sink.url,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    });
    const readiness = async () => {
      const response = await fetch(`${server.baseUrl}/readyz`);
      return { status: response.status, body: (await response.json()) as object };
    };
    // Redis only shares counters between instances: without it, this one still serves.
    expect(await readiness()).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: { database: 'up', objectStore: 'up', redis: 'degraded', smtp: 'up' },
      },
    });
    // The relay goes away too; the answer is probed at most once a second.
    await sink.close();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await readiness()).toMatchObject({
      status: 503,
      body: {
        detail: 'not answering: smtp',
        checks: { database: 'up', objectStore: 'up', redis: 'degraded', smtp: 'down' },
      },
    });
    expect(await stopServer(server)).toBe(0);
  }, 180_000);
});

const canMount = process.getuid?.() === 0;

describe('a full disk', () => {
  it.skipIf(!canMount)(
    'answers 507 and leaves no file, whole or partial',
    async () => {
      const dataDir = newDataDir();
      const files = path.join(dataDir, 'files');
      mkdirSync(files, { recursive: true });
      // A 64 KiB file system under DATA_DIR/files: the upload below does not fit.
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', files]);
      cleanups.push(() => void execFileSync('umount', ['-l', files]));
      const server = await readyServer({
        DATA_DIR: dataDir,
        PORT: '4245',
        PUBLIC_URL: 'http://127.0.0.1:4245',
      });
      // A real PNG of noise, larger than the disk: it passes the image check, then fills it.
      const side = 200;
      const noise = await sharp(randomBytes(side * side * 3), {
        raw: { width: side, height: side, channels: 3 },
      })
        .png()
        .toBuffer();
      const { url } = await signedUpload(server.baseUrl);
      const put = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body: noise,
      });
      expect(put.status).toBe(507);
      expect(await put.json()).toMatchObject({
        code: 'insufficient_storage',
        detail: expect.stringContaining('no room'),
      });
      // Nothing half-written is left to be served.
      expect(filesUnder(files)).toEqual([]);
      expect(await stopServer(server)).toBe(0);
    },
    180_000,
  );
});
