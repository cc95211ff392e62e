import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

/**
 * The server's own log output at the most talkative level, read where pino writes it: a
 * synchronous write to file descriptor 1, or process.stdout when the runner has replaced
 * stdout's writer (as test runners do).
 */
let t: TestApp;
const logged: string[] = [];

beforeAll(async () => {
  const writeSync = fs.writeSync;
  vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: unknown, ...rest: never[]) => {
    if (fd !== 1) return writeSync(fd, data as string, ...rest);
    logged.push(String(data));
    return String(data).length;
  }) as typeof fs.writeSync);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    logged.push(String(chunk));
    return true;
  });
  t = await createTestApp({ LOG_LEVEL: 'trace' });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t.close();
});

describe('ending-note values and logs', () => {
  it('never writes a saved, refused or exported value to the log', async () => {
    const owner = await createMember(t);
    const secret = 'SECRET-ACCOUNT-4921-7730';
    const url = `/v1/endingnote/${owner.id}/sections/assets`;
    const saved = await t.request({
      method: 'PUT',
      url,
      token: owner.token,
      body: { version: 0, values: { bank_accounts: secret } },
    });
    expect(saved.statusCode).toBe(200);
    const stale = await t.request({
      method: 'PUT',
      url,
      token: owner.token,
      body: { version: 0, values: { bank_accounts: secret } },
    });
    expect(stale.statusCode).toBe(409);
    const refused = await t.request({
      method: 'PUT',
      url,
      token: owner.token,
      body: { version: 1, values: { bank_accounts: secret, held: [secret] } },
    });
    expect(refused.statusCode).toBe(422);
    const exported = await t.request({
      method: 'GET',
      url: `/v1/endingnote/${owner.id}/export?format=html`,
      token: owner.token,
    });
    expect(exported.body).toContain(secret);

    const output = logged.join('');
    expect(output, 'the requests were logged').toContain(`/v1/endingnote/${owner.id}/export`);
    expect(output).not.toContain(secret);
    expect(output).not.toContain(owner.token);
  });
});
