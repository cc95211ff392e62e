/**
 * `npm start` in production never makes its own secrets: every instance must be given the
 * same AUTH_SECRET and DATA_ENCRYPTION_KEY, or a token from one is refused by the next.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-production-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm start with NODE_ENV=production', () => {
  it('refuses to start without its secrets, in one line, and writes none', async () => {
    const npm = spawn('npm', ['start', '--silent'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        PORT: '4273',
        SHINOBU_SKIP_BUILD: 'true',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    npm.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => npm.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toEqual([
      'shinobu: AUTH_SECRET, DATA_ENCRYPTION_KEY: required when NODE_ENV=production (generate with: openssl rand -base64 32)',
    ]);
    expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(false);
  }, 60_000);
});
