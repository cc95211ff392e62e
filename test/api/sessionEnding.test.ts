import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { mailOutbox } from '../../server/db/schema';
import { manualClock } from '../../server/lib/clock';
import { hashPassword } from '../../server/domain/accounts/passwords';
import { createMember, type MemberFactory, type TestMember } from '../support/members';
import { createTestApp, RATE_LIMITS_OFF, type TestApp, type TestRequest } from '../support/testApp';
import { createPostgresDatabase } from '../support/testDatabase';

const PASSWORD = 'a quiet morning by the sea';
const NEW_PASSWORD = 'the tide comes in at noon';

type Send = (request: TestRequest) => Promise<LightMyRequestResponse>;

/** Where the events happen, where the old tokens are tried, and what makes members. */
interface Instances {
  on: Send;
  check: Send;
  factory: MemberFactory;
  /** The link of the newest change notice mailed to `email`. */
  changeNoticeLink(email: string): Promise<string>;
}

const sendTo =
  (app: FastifyInstance): Send =>
  ({ method, url, token, body }) =>
    app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body !== undefined ? { payload: body as object } : {}),
    });

const readProfile = (send: Send, member: TestMember, token: string) =>
  send({ method: 'GET', url: `/v1/user/${member.id}`, token });

/**
 * The status a token's read gets once the ended session has reached the instance: read until
 * it is no longer 200, a bounded number of times (the notice travels between connections).
 */
async function statusOnceSettled(send: Send, member: TestMember, token: string) {
  let status = 200;
  for (let attempt = 0; attempt < 200 && status === 200; attempt += 1) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    status = (await readProfile(send, member, token)).statusCode;
  }
  return status;
}

function sessionEndingCases(instances: () => Instances) {
  const memberWithPassword = async () =>
    createMember(instances().factory, { passwordHash: await hashPassword(PASSWORD) });

  /** The member's token works where it will be tried (and is kept there) before the event. */
  async function warmed(member: TestMember, token = member.token) {
    expect((await readProfile(instances().check, member, token)).statusCode).toBe(200);
  }

  it('refuses the old access token after a password change, and honours the new one', async () => {
    const { on, check } = instances();
    const member = await memberWithPassword();
    await warmed(member);
    const changed = await on({
      method: 'POST',
      url: '/v1/mypage/password',
      token: member.token,
      body: { current_password: PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    expect(await statusOnceSettled(check, member, member.token)).toBe(401);
    const fresh = (changed.json() as { accessToken: string }).accessToken;
    expect((await readProfile(check, member, fresh)).statusCode).toBe(200);
  });

  it('refuses every token issued before a change report', async () => {
    const { on, check, changeNoticeLink } = instances();
    const member = await memberWithPassword();
    const changed = await on({
      method: 'POST',
      url: '/v1/mypage/password',
      token: member.token,
      body: { current_password: PASSWORD, new_password: NEW_PASSWORD },
    });
    const afterChange = (changed.json() as { accessToken: string }).accessToken;
    await warmed(member, afterChange);
    const reportToken = new URL(await changeNoticeLink(member.email)).searchParams.get('token')!;
    const reported = await on({
      method: 'POST',
      url: '/v1/account/change_report',
      body: { token: reportToken },
    });
    expect(reported.statusCode).toBe(200);
    expect(await statusOnceSettled(check, member, afterChange)).toBe(401);
  });

  it('refuses every token of the member after sign-out everywhere', async () => {
    const { on, check } = instances();
    const member = await createMember(instances().factory);
    await warmed(member);
    const ended = await on({ method: 'POST', url: '/v1/logout/everywhere', token: member.token });
    expect(ended.statusCode).toBe(204);
    expect(await statusOnceSettled(check, member, member.token)).toBe(401);
  });

  it("lets a deleted member's token read and create nothing", async () => {
    const { on, check, factory } = instances();
    const member = await createMember(factory);
    const other = await createMember(factory);
    await warmed(member);
    const deleted = await on({ method: 'DELETE', url: '/v1/user', token: member.token });
    expect(deleted.statusCode).toBe(204);
    expect(await statusOnceSettled(check, member, member.token)).toBe(401);
    const page = await check({
      method: 'POST',
      url: '/v1/memorial_page',
      token: member.token,
      body: {
        type: 'other',
        last_name: '祖父',
        first_name: '一',
        last_name_kana: 'そふ',
        first_name_kana: 'はじめ',
      },
    });
    expect(page.statusCode).toBe(401);
    const request = await check({
      method: 'POST',
      url: '/v1/connection/requests',
      token: member.token,
      body: { to_user_id: other.id, relationship: 'friend' },
    });
    expect(request.statusCode).toBe(401);
  });
}

describe('ending sessions on one instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  sessionEndingCases(() => ({
    on: t.request,
    check: t.request,
    factory: t,
    changeNoticeLink: async (email) =>
      t.mailbox.findLast((mail) => mail.to === email && mail.link?.includes('change-report'))!
        .link!,
  }));
});

// Two instances with their own connections need PostgreSQL: PGlite belongs to one process.
const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('ending sessions on one of two instances sharing PostgreSQL', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-session-ending-'));
  const databases: Database[] = [];
  const apps: FastifyInstance[] = [];
  let drop = async (): Promise<void> => undefined;
  const clock = manualClock();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    ...RATE_LIMITS_OFF,
  });

  beforeAll(async () => {
    const created = await createPostgresDatabase(serverUrl!);
    drop = created.drop;
    for (let instance = 0; instance < 2; instance += 1) {
      const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 3 });
      if (instance === 0) await migrate(database);
      databases.push(database);
      const { app } = await buildApp(config, database, {
        clock,
        mailer: { send: async () => undefined },
        spaRoot: path.join(dataDir, 'no-spa'),
      });
      await app.ready();
      apps.push(app);
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  sessionEndingCases(() => ({
    on: sendTo(apps[0]!),
    check: sendTo(apps[1]!),
    factory: { ctx: { database: databases[0]! }, clock, config },
    // Nothing sends the outbox here: the notice is still in it.
    changeNoticeLink: async (email) => {
      const [notice] = await databases[0]!.db
        .select({ link: mailOutbox.link })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.kind, 'change_notice'), eq(mailOutbox.toEmail, email)))
        .orderBy(desc(mailOutbox.createdAt));
      return notice!.link!;
    },
  }));
});
