import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from '../../server/mail/mailer';

const LINK = 'http://localhost:3000/activate?token=secret-token-1234&email=a%40example.jp';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The outbox mailer with a logger that keeps every line it is given. */
function outbox(logLinks: boolean) {
  const outboxDir = mkdtempSync(path.join(tmpdir(), 'shinobu-outbox-'));
  dirs.push(outboxDir);
  const lines: unknown[] = [];
  const log = { info: (...args: unknown[]) => lines.push(args) } as unknown as FastifyBaseLogger;
  const mailer = createMailer({
    smtpUrl: undefined,
    from: 'x <x@example.jp>',
    outboxDir,
    logLinks,
    log,
  });
  return { mailer, outboxDir, logged: () => JSON.stringify(lines) };
}

describe('the outbox mailer', () => {
  it('prints the link of each mail to the log in development', async () => {
    const { mailer, logged } = outbox(true);
    await mailer.send({
      to: 'a@example.jp',
      subject: 's',
      text: `open ${LINK}`,
      link: LINK,
      messageId: '<m-1@example.jp>',
    });
    expect(logged()).toContain('secret-token-1234');
  });

  it('never writes a link to the log in production, only to the mail file', async () => {
    const { mailer, outboxDir, logged } = outbox(false);
    await mailer.send({
      to: 'a@example.jp',
      subject: 's',
      text: `open ${LINK}`,
      link: LINK,
      messageId: '<m-1@example.jp>',
    });
    expect(logged()).not.toContain('secret-token-1234');
    expect(logged()).toContain('mail written to outbox');
    const [file] = readdirSync(outboxDir);
    expect(readFileSync(path.join(outboxDir, file!), 'utf8')).toContain('secret-token-1234');
  });
});
