/**
 * Death-detection figures on PostgreSQL: the periodic suspicion sweep over 100,000
 * members (every one with an ACTIVE certificate and a check-in period), in seconds per sweep
 * (target ≤ 10 s), and the p99 of an API call while sweeps run compared with the same call
 * without them. The population, seeded straight into the database before the server starts:
 * EXPIRED members whose certificate just expired, CHECK_INS_DUE members past their check-in
 * period, ESCALATIONS unanswered check-ins past their answer-by time, and a revocation list
 * naming REVOKED certificates (so the sweep pages through every active certificate).
 * Mails are counted in the outbox the sweep writes them to: the figure is the server's work,
 * not an SMTP relay's.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import autocannon from 'autocannon';
import { openDatabase } from '../server/db/database';
import { systemClock } from '../server/lib/clock';
import type { DeathDeps } from '../server/domain/deathDetection/deathDeps';
import { logPushSender } from '../server/domain/deathDetection/push';
import { fileRevocationChecker } from '../server/domain/deathDetection/revocation';
import { runSuspicionSweep } from '../server/domain/deathDetection/sweep';
import { createBenchSite, startServer } from './server';
import { seedMembers } from './searchSeed';
import type { BenchModule, BenchOptions, BenchRow } from './types';

/** In the death-detection helper's port range. */
const PORT = 4304;
const MEMBERS = Number(process.env.BENCH_DEATH_MEMBERS ?? 100_000);
const EXPIRED = 100;
const REVOKED = 10;
const CHECK_INS_DUE = 1_000;
const ESCALATIONS = 100;
const CONNECTIONS = 20;
const SWEEP_TARGET_MS = 10_000;
/** A structurally valid certificate text; the sweep never parses stored certificates. */
const STORED_PEM = '-----BEGIN CERTIFICATE-----\nbench\n-----END CERTIFICATE-----\n';

async function seed(db: DeathDeps['db'], revocationFile: string): Promise<void> {
  const ids = await seedMembers(db, MEMBERS, 20261209);
  const now = new Date();
  await db.execute(sql`
    insert into identity_verifications
      (user_id, status, certificate_pem, fingerprint, serial_number, subject_email, not_after, verified_at, updated_at)
    select id, 'ACTIVE', ${STORED_PEM}, upper(md5(id::text)), md5(email), email,
           ${now.toISOString()}::timestamptz + interval '365 days', ${now.toISOString()}::timestamptz,
           ${now.toISOString()}::timestamptz
    from users where status = 'active'`);
  await db.execute(sql`
    insert into death_settings (user_id, rule, check_in_period_days, alive_at, updated_at)
    select id, 'any_one', 180, ${now.toISOString()}::timestamptz - interval '10 days',
           ${now.toISOString()}::timestamptz
    from users where status = 'active'`);
  const slice = (from: number, count: number) => ids.slice(from, from + count);
  const expired = slice(0, EXPIRED);
  const due = slice(EXPIRED, CHECK_INS_DUE);
  const escalating = slice(EXPIRED + CHECK_INS_DUE, ESCALATIONS);
  const revoked = slice(EXPIRED + CHECK_INS_DUE + ESCALATIONS, REVOKED);
  await db.execute(sql`
    update identity_verifications set not_after = ${now.toISOString()}::timestamptz - interval '1 minute'
    where user_id in ${expired}`);
  await db.execute(sql`
    update death_settings set alive_at = ${now.toISOString()}::timestamptz - interval '200 days'
    where user_id in ${due}`);
  await db.execute(sql`
    insert into death_check_ins (token_hash, user_id, sent_at, answer_by)
    select md5(id::text), id, ${now.toISOString()}::timestamptz - interval '20 days',
           ${now.toISOString()}::timestamptz - interval '6 days'
    from users where id in ${escalating}`);
  const fingerprints = await db.execute(
    sql`select fingerprint from identity_verifications where user_id in ${revoked}`,
  );
  writeFileSync(
    revocationFile,
    (fingerprints as unknown as { rows: { fingerprint: string }[] }).rows
      .map((row) => row.fingerprint)
      .join('\n'),
  );
  await db.execute(sql`analyze`);
}

async function p99Of(url: string, token: string, seconds: number) {
  const result = await autocannon({
    url,
    headers: { authorization: `Bearer ${token}` },
    connections: CONNECTIONS,
    duration: seconds,
  });
  return { p99: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts };
}

async function benchDeathDetection(options: BenchOptions): Promise<BenchRow[]> {
  if (!options.databaseUrl) {
    return [
      {
        name: `Suspicion sweep, ${MEMBERS.toLocaleString('en')} members (postgres)`,
        value: undefined,
        unit: 'ms',
        target: `<= ${SWEEP_TARGET_MS.toLocaleString('en')} ms`,
        note: 'needs DATABASE_URL (PostgreSQL)',
      },
    ];
  }
  const site = await createBenchSite(options.databaseUrl);
  const database = await openDatabase({ kind: 'postgres', url: site.env.DATABASE_URL! });
  try {
    const revocationFile = path.join(site.env.DATA_DIR!, 'revoked.txt');
    const seedStarted = performance.now();
    await seed(database.db, revocationFile);
    options.log(
      `death detection: seeded ${MEMBERS} members in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`,
    );
    const silent = { info: () => undefined, error: () => undefined };
    const deps: DeathDeps = {
      db: database.db,
      clock: systemClock(),
      publicUrl: 'http://127.0.0.1',
      settings: {
        identityTrustAnchorsPem: '',
        identityRevocationListFile: revocationFile,
        gracePeriodDays: 7,
        checkInAnswerDays: 14,
        fposClients: [],
        pushWebhookUrl: undefined,
      },
      trustAnchors: [],
      push: logPushSender(silent),
      revocation: fileRevocationChecker(revocationFile),
      log: silent,
    };
    // The server's own jobs stay off: the only sweeps are the ones measured here.
    const server = await startServer({ ...site.env, RUN_JOBS: 'false' }, PORT);
    try {
      const url = `${server.url}/v1/fpos/death_suspected_user`;
      const quiet = await p99Of(url, site.member.token, options.durationSeconds);
      let firstSweepMs = 0;

      // The sweep with findings runs while the API is under load; then a sweep with nothing
      // left to find runs alone.
      const sweepStarted = performance.now();
      const [firstResult, during] = await Promise.all([
        runSuspicionSweep(deps).then((result) => {
          firstSweepMs = performance.now() - sweepStarted;
          return result;
        }),
        p99Of(url, site.member.token, options.durationSeconds),
      ]);
      const steadyStarted = performance.now();
      await runSuspicionSweep(deps);
      const steady = performance.now() - steadyStarted;
      const counted = (await database.db.execute(
        sql`select count(*)::int as mails from mail_outbox`,
      )) as unknown as { rows: { mails: number }[] };
      const mails = counted.rows[0]!.mails;
      options.log(
        `death detection: first sweep ${firstSweepMs.toFixed(0)} ms ${JSON.stringify(firstResult)}, ${mails} mails; ` +
          `next sweep ${steady.toFixed(0)} ms; API p99 ${quiet.p99} ms quiet, ${during.p99} ms during the sweep`,
      );
      return [
        {
          name: `Suspicion sweep with findings, ${MEMBERS.toLocaleString('en')} members (postgres)`,
          value: firstSweepMs,
          unit: 'ms',
          target: `<= ${SWEEP_TARGET_MS.toLocaleString('en')} ms`,
          met: firstSweepMs <= SWEEP_TARGET_MS,
          note: `${EXPIRED} expired, ${REVOKED} revoked, ${CHECK_INS_DUE} check-ins, ${ESCALATIONS} escalations`,
        },
        {
          name: `Suspicion sweep, nothing found, ${MEMBERS.toLocaleString('en')} members (postgres)`,
          value: steady,
          unit: 'ms',
          target: `<= ${SWEEP_TARGET_MS.toLocaleString('en')} ms`,
          met: steady <= SWEEP_TARGET_MS,
          note: 'the sweep right after, every member still checked',
        },
        {
          name: `GET /v1/fpos/death_suspected_user p99, ${CONNECTIONS} connections, no sweep (postgres)`,
          value: quiet.p99,
          unit: 'ms',
          ...(quiet.failures > 0 ? { note: `${quiet.failures} failed` } : {}),
        },
        {
          name: `GET /v1/fpos/death_suspected_user p99, ${CONNECTIONS} connections, during the sweep (postgres)`,
          value: during.p99,
          unit: 'ms',
          ...(during.failures > 0 ? { note: `${during.failures} failed` } : {}),
        },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await database.close();
    await site.remove();
  }
}

export const deathDetectionBench: BenchModule = {
  title: 'death detection',
  run: benchDeathDetection,
};
