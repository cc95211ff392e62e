/**
 * The real `npm start` process (node scripts/start.mjs) on the embedded database: start, refusals
 * with one clear line, graceful stop with a request in flight, and a restart that loses nothing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { systemClock } from '../../server/lib/clock';
import sharp from 'sharp';
import { createFileUrls } from '../../server/storage/fileUrls';
import { createLocalStore } from '../../server/storage/localStore';
import { startReadyServer, startServer, stopServer, type ServerProcess } from './serverProcess';

const MIGRATIONS = readdirSync('server/db/migrations')
  .filter((name) => name.endsWith('.sql'))
  .sort();
/** An image upload that arrives in two halves, around a SIGTERM (a PNG is kept as sent). */
const UPLOAD = await sharp({
  create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 120, b: 40 } },
})
  .png()
  .toBuffer();
let objectName: string;

let dataDir: string;
let first: ServerProcess;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-process-'));
  first = await startReadyServer({
    DATA_DIR: dataDir,
    PORT: '4240',
    PUBLIC_URL: 'http://127.0.0.1:4240',
    LOG_LEVEL: 'debug',
  });
}, 60_000);

afterAll(async () => {
  await stopServer(first);
  rmSync(dataDir, { recursive: true, force: true });
});

/** A store that signs URLs with the running server's generated secret. */
function storeFor(baseUrl: string) {
  const secrets = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as {
    AUTH_SECRET: string;
  };
  return createLocalStore({
    root: path.join(dataDir, 'files'),
    urls: createFileUrls({
      publicUrl: baseUrl,
      secret: secrets.AUTH_SECRET,
      clock: systemClock(),
    }),
  });
}

async function onlyLine(server: ServerProcess): Promise<string[]> {
  expect(await server.exited).toBe(1);
  return server.stderr().trimEnd().split('\n');
}

describe('npm start on a DATA_DIR', () => {
  it('migrates, listens and answers /healthz', async () => {
    const ready = JSON.parse(await first.waitForLog('Shinobu is ready')) as Record<string, unknown>;
    expect(ready).toMatchObject({ database: 'pglite', migrationsApplied: MIGRATIONS.length });
    const response = await fetch(`${first.baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('logs each request once, with its request id and without query values', async () => {
    const response = await fetch(`${first.baseUrl}/v1/no-such-path?token=secret-value`);
    const requestId = response.headers.get('x-request-id');
    const line = JSON.parse(await first.waitForLog(`"reqId":"${requestId}","req"`)) as Record<
      string,
      unknown
    >;
    expect(line).toMatchObject({
      msg: 'request received',
      req: { method: 'GET', url: '/v1/no-such-path?token=[redacted]' },
    });
    const completed = JSON.parse(await first.waitForLog(`"statusCode":404}`)) as Record<
      string,
      unknown
    >;
    expect(completed).toMatchObject({ reqId: requestId, msg: 'request completed' });
    expect(first.stdout()).not.toContain('secret-value');
  });

  it('refuses a second start on the same DATA_DIR with one clear line', async () => {
    const second = startServer({ DATA_DIR: dataDir, PORT: '4241' });
    expect(await onlyLine(second)).toEqual([
      `shinobu: DATA_DIR: ${dataDir} is in use by another running Shinobu (process ${first.child.pid}); stop it or choose another DATA_DIR`,
    ]);
    expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200);
  });

  it('finishes a request in flight on SIGTERM, then exits cleanly', async () => {
    const signed = (await (
      await fetch(`${first.baseUrl}/v1/signed_url?method=PUT&image_name=kept.png`)
    ).json()) as { url: string; imageName: string };
    objectName = signed.imageName;
    const url = new URL(signed.url);
    const answer = new Promise<number | undefined>((resolve, reject) => {
      const request = http.request(url, {
        method: 'PUT',
        headers: { 'content-type': 'image/png', 'content-length': String(UPLOAD.length) },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on('error', reject);
      request.write(UPLOAD.subarray(0, 10));
      // Only once the server is inside the request does the stop begin; then the rest arrives.
      void first
        .waitForLog(`"url":"/files/${objectName}?`)
        .then(() => first.child.kill('SIGTERM'))
        .then(() => first.waitForLog('stopping: finishing in-flight requests'))
        .then(() => request.end(UPLOAD.subarray(10)));
    });
    expect(await answer).toBe(204);
    expect(await first.exited).toBe(0);
    expect(first.stderr()).toBe('');
  });

  it('loses nothing across a restart', async () => {
    // The stopped server left a database that opens cleanly with every migration recorded.
    const direct = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') });
    const kept = await direct.withSession(async (run) => {
      const applied = await run('SELECT name FROM schema_migrations ORDER BY name');
      expect(applied.map((row) => row.name)).toEqual(MIGRATIONS);
      return run(
        "INSERT INTO users (email, username) VALUES ('kept@example.jp', 'kept') RETURNING id",
      );
    });
    await direct.close();

    const restarted = await startReadyServer({
      DATA_DIR: dataDir,
      PORT: '4242',
      PUBLIC_URL: 'http://127.0.0.1:4242',
    });
    const ready = JSON.parse(await restarted.waitForLog('Shinobu is ready')) as Record<
      string,
      unknown
    >;
    expect(ready.migrationsApplied).toBe(0);
    const file = await fetch(await storeFor(restarted.baseUrl).signedUrl(objectName, 'GET'));
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(UPLOAD);
    expect(await stopServer(restarted, 'SIGINT')).toBe(0);

    const after = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') });
    const rows = await after.withSession((run) =>
      run(`SELECT email FROM users WHERE id = '${String(kept[0]!.id)}'`),
    );
    await after.close();
    expect(rows).toEqual([{ email: 'kept@example.jp' }]);
  }, 60_000);
});

describe('npm start refuses to start', () => {
  it('on a DATA_DIR it cannot write, with one line naming it', async () => {
    const file = path.join(dataDir, 'not-a-folder');
    writeFileSync(file, '');
    const server = startServer({ DATA_DIR: path.join(file, 'data'), PORT: '4243' });
    expect(await onlyLine(server)).toEqual([
      `shinobu: DATA_DIR: ${path.join(file, 'data')} is not a writable directory (ENOTDIR)`,
    ]);
  });

  it('on a DATABASE_URL nobody answers, with one line naming it', async () => {
    const server = startServer({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shinobu-process-pg-')),
      PORT: '4244',
      DATABASE_URL: 'postgres://127.0.0.1:1/x',
    });
    expect(await onlyLine(server)).toEqual([
      'shinobu: DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:1 (connect ECONNREFUSED 127.0.0.1:1)',
    ]);
  });
});
