import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createTestDatabase } from '../support/testDatabase';

async function startApp(testClockControl: boolean): Promise<{ app: App; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-clock-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    TEST_CLOCK_CONTROL: String(testClockControl),
  });
  const database = await createTestDatabase();
  const app = await buildApp(config, database, {
    mailer: { send: async () => undefined },
    spaRoot: path.join(dataDir, 'no-spa'),
  });
  await app.app.ready();
  return {
    app,
    close: async () => {
      await app.app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('POST /v1/test/clock', () => {
  let enabled: Awaited<ReturnType<typeof startApp>>;
  let disabled: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    enabled = await startApp(true);
    disabled = await startApp(false);
  });
  afterAll(async () => {
    await enabled?.close();
    await disabled?.close();
  });

  it('moves the clock every part of the server reads', async () => {
    const before = enabled.app.ctx.clock.now().getTime();
    const answer = await enabled.app.app.inject({
      method: 'POST',
      url: '/v1/test/clock',
      payload: { advance_ms: 3_600_000 },
    });
    expect(answer.statusCode).toBe(200);
    const now = new Date(answer.json<{ now: string }>().now).getTime();
    expect(now - before).toBeGreaterThanOrEqual(3_600_000);
    expect(enabled.app.ctx.clock.now().getTime()).toBeGreaterThanOrEqual(now);
  });

  it('refuses to move it backwards or by nothing', async () => {
    for (const advance_ms of [-1, 0, 'soon']) {
      const answer = await enabled.app.app.inject({
        method: 'POST',
        url: '/v1/test/clock',
        payload: { advance_ms },
      });
      expect(answer.statusCode).toBe(422);
    }
  });

  it('does not exist unless TEST_CLOCK_CONTROL is set', async () => {
    const answer = await disabled.app.app.inject({
      method: 'POST',
      url: '/v1/test/clock',
      payload: { advance_ms: 1000 },
    });
    expect(answer.statusCode).toBe(404);
  });
});
