import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type RouteEntry } from '../../server/app';
import type { ContractDrift } from '../../server/http/endpoints';
import { loadConfig, type Config } from '../../server/config';
import type { AppContext } from '../../server/context';
import { manualClock } from '../../server/lib/clock';
import { outboxDepsOf } from '../../server/areaDeps';
import type { OutgoingMail } from '../../server/mail/mailer';
import { sendAllPendingMails } from '../../server/mail/outbox';
import { createTestDatabase } from './testDatabase';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  clock: ReturnType<typeof manualClock>;
  /** Every mail the server sent, newest last (request() sends the outbox's due mails). */
  mailbox: OutgoingMail[];
  /** Sends the outbox's due mails into the mailbox, as the job runner would. */
  sendMail(): Promise<void>;
  config: Config;
  /** Every route the app registered (server/app.ts `RouteEntry`). */
  routes: RouteEntry[];
  /** app.inject with JSON bodies and an optional bearer token. */
  request(options: TestRequest): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestRequest {
  method: InjectOptions['method'];
  url: string;
  token?: string;
  body?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

/**
 * Every test signs its members up from one address: the per-client rate limits are off
 * unless a test sets them (test/api/rateLimits.test.ts).
 */
export const RATE_LIMITS_OFF = {
  RATE_LIMIT_MAIL_PER_HOUR: '0',
  RATE_LIMIT_UPLOAD_PER_HOUR: '0',
  RATE_LIMIT_SEARCH_PER_MINUTE: '0',
  RATE_LIMIT_DEATH_REPORT_PER_HOUR: '0',
  RATE_LIMIT_AUTH_PER_MINUTE: '0',
} as const;

/**
 * The real application on a fresh database, with a hand-moved clock and a mailbox that
 * records what would be sent. Nothing of our own is replaced but the clock and the mail wire;
 * the outbox is sent after each request() as the job runner would send it.
 */
/** An answer that left its endpoint's contract fails the test that asked for it. */
function failOnDrift(drifts: ContractDrift[]): void {
  if (drifts.length === 0) return;
  const found = drifts.splice(0).map((drift) => `${drift.route} ${drift.status}: ${drift.problem}`);
  throw new Error(`answers that break the contract (contract):\n${found.join('\n')}`);
}

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    ...RATE_LIMITS_OFF,
    ...env,
  });
  const database = await createTestDatabase();
  const clock = manualClock();
  const mailbox: OutgoingMail[] = [];
  const drifts: ContractDrift[] = [];
  const { app, ctx, routes } = await buildApp(config, database, {
    clock,
    contractDrifts: drifts,
    mailer: { send: async (message) => void mailbox.push(message) },
    spaRoot: path.join(dataDir, 'no-spa'),
  });
  await app.ready();
  const sendMail = async () => void (await sendAllPendingMails(outboxDepsOf(ctx)));
  return {
    app,
    ctx,
    clock,
    mailbox,
    sendMail,
    config,
    routes,
    request: async ({ method, url, token, body, form, headers }) => {
      const response = await app.inject({
        method,
        url,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...headers,
        },
        ...(form
          ? { payload: new URLSearchParams(form).toString() }
          : body !== undefined
            ? { payload: body as object }
            : {}),
      });
      await sendMail();
      failOnDrift(drifts);
      return response;
    },
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
      failOnDrift(drifts);
    },
  };
}

/**
 * A second application on the test app's database and clock, as another server instance
 * would be: what it keeps in memory is its own, what it reads is shared (and, asked, what it
 * mails lands in the test app's mailbox). Close it yourself.
 */
export async function createSecondInstance(
  t: TestApp,
  { sharedMailbox = false }: { sharedMailbox?: boolean } = {},
): Promise<FastifyInstance> {
  const { app } = await buildApp(t.config, t.ctx.database, {
    clock: t.clock,
    mailer: { send: async (message) => void (sharedMailbox && t.mailbox.push(message)) },
    spaRoot: path.join(t.config.dataDir, 'no-spa'),
  });
  await app.ready();
  return app;
}
