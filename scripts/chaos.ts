/**
 * Crash run of letter delivery on PostgreSQL: N letters falling due over the run, two server
 * instances delivering them, one of the two killed with SIGKILL at random moments and
 * restarted, until the number of kills is reached and every mail has left. An SMTP sink counts
 * what arrived by Message-ID. Then the same with a relay that refuses 30 % of mails and goes
 * away for 60 s.
 *
 *   npm run chaos [-- --letters 2000] [-- --kills 100] [-- --database postgres://…]
 *                 [-- --only steady|failing] [-- --ports 4243,4244]
 *
 * Prints one line per run: kills, letters, delivered once, lost, duplicated; for the mails,
 * counted at the sink by Message-ID, the same three figures; mails tried more than once, mails
 * given up on, and the seconds the run took.
 */
import { parseArgs } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { queryRows } from '../server/db/rows';
import { messageIdOf } from '../server/mail/outbox';
import { seedLetters, seedMembers } from '../test/api/letterDeliverySeed';
import { startServer, waitFor, type ServerProcess } from '../test/api/letterDeliveryServers';
import { startSmtpSink, type SmtpSink } from '../test/support/smtpSink';
import { createPostgresDatabase } from '../test/support/testDatabase';

const { values } = parseArgs({
  options: {
    letters: { type: 'string', default: '2000' },
    kills: { type: 'string', default: '100' },
    database: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    only: { type: 'string' },
    ports: { type: 'string', default: '4243,4244' },
    'relay-away-ms': { type: 'string', default: '60000' },
    // The outbox's backoff and claim, shortened (MAIL_RETRY_FIRST_MS, MAIL_RETRY_MAX_MS,
    // MAIL_CLAIM_MS): with the production minutes a relay away for a minute would leave mails
    // waiting up to an hour, and a killed sender's claim five minutes.
    'retry-first-ms': { type: 'string', default: '1000' },
    'retry-max-ms': { type: 'string', default: '16000' },
    'claim-ms': { type: 'string', default: '30000' },
  },
});
const LETTERS = Number(values.letters);
const KILLS = Number(values.kills);
const RELAY_AWAY_MS = Number(values['relay-away-ms']);
const PORTS = values.ports.split(',').map(Number);
const PUBLIC_URL = `http://127.0.0.1:${PORTS[0]}`;
const HOUR = 60 * 60 * 1000;
/** Letters fall due in this many steps spread over the kills, so kills meet work in hand. */
const DUE_STEPS = 20;
/** About how long one kill takes on a loaded two-core machine (a start takes 5–20 s there). */
const KILL_PERIOD_MS = 8_000;
/** How long a start may take before the run gives up (the machine may be loaded). */
const START_TIMEOUT_MS = 180_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(label: string, failingRelay: boolean): Promise<string> {
  const created = await createPostgresDatabase(values.database);
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 });
  let sink: SmtpSink = await startSmtpSink();
  const sinkPort = Number(new URL(sink.url).port);
  const received: SmtpSink['received'] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-chaos-'));
  const instances: ServerProcess[] = [];
  // Should this process die unexpectedly, its servers go with it rather than run on orphaned.
  const killAll = () => instances.forEach((instance) => instance.child.kill('SIGKILL'));
  process.on('exit', killAll);
  try {
    await migrate(database);
    // The servers' clock runs 2 hours ahead: a letter due at real time + 2 h + t falls due
    // t after the start; the letters fall due step by step over the time the kills take.
    const [writerId, readerId] = (await seedMembers(database.db, ['writer', 'reader'])) as [
      string,
      string,
    ];
    const startsAt = Date.now() + 2 * HOUR;
    const spreadMs = KILLS * KILL_PERIOD_MS;
    for (let step = 0; step < DUE_STEPS; step += 1) {
      const count =
        Math.floor((LETTERS * (step + 1)) / DUE_STEPS) - Math.floor((LETTERS * step) / DUE_STEPS);
      const dueAt = new Date(startsAt + (spreadMs * step) / DUE_STEPS);
      if (count > 0) await seedLetters(database.db, { writerId, readerId, count, dueAt });
    }
    if (failingRelay) sink.refuseShare(0.3);
    const started = performance.now();
    const start = (index: number) =>
      startServer({
        DATA_DIR: dataDir,
        PORT: String(PORTS[index]),
        PUBLIC_URL,
        DATABASE_URL: created.url,
        SMTP_URL: sink.url,
        CLOCK_OFFSET_MS: String(2 * HOUR),
        LOG_LEVEL: 'info',
        MAIL_RETRY_FIRST_MS: values['retry-first-ms'],
        MAIL_RETRY_MAX_MS: values['retry-max-ms'],
        MAIL_CLAIM_MS: values['claim-ms'],
      });
    instances.push(start(0), start(1));

    const pending = async () => {
      const [row] = await queryRows<{ letters: number; mails: number }>(
        database.db,
        sql`select
          (select count(*)::int from time_capsule_letters where delivered_at is null) as letters,
          (select count(*)::int from mail_outbox where sent_at is null and failed_at is null) as mails`,
      );
      return row!.letters + row!.mails;
    };
    let kills = 0;
    // The failing relay goes away a few seconds in, while the kills go on, and comes back
    // RELAY_AWAY_MS later on the same port: mails wait their backoff, then go out.
    const relayOutage = failingRelay
      ? (async () => {
          await pause(5_000);
          received.push(...sink.received);
          await sink.close();
          await pause(RELAY_AWAY_MS);
          sink = await startSmtpSink(sinkPort);
          sink.refuseShare(0.3);
        })()
      : Promise.resolve();
    // Each instance is killed at a random moment 0.5–6 s after it is ready (its jobs run
    // every 1 and 2 s, so mostly in the middle of a batch), and restarted at once; the other
    // goes on meanwhile, or is starting itself.
    const killAt: (number | undefined)[] = [undefined, undefined];
    await waitFor(
      'both servers to start',
      () => instances.every((instance) => instance.logs.some((line) => line.readyInMs)),
      START_TIMEOUT_MS,
      100,
    );
    while (kills < KILLS) {
      await pause(100);
      for (const index of [0, 1]) {
        if (kills >= KILLS) break;
        const instance = instances[index]!;
        if (killAt[index] === undefined) {
          if (instance.logs.some((line) => line.readyInMs !== undefined))
            killAt[index] = Date.now() + 500 + Math.random() * 5_500;
          continue;
        }
        if (Date.now() < killAt[index]!) continue;
        instance.child.kill('SIGKILL');
        await instance.exited;
        instances[index] = start(index);
        killAt[index] = undefined;
        kills += 1;
      }
    }
    await relayOutage;
    // Kills done: the backlog drains (claims of killed senders expire after --claim-ms,
    // retries wait their backoff).
    while ((await pending()) > 0) await pause(1_000);
    const seconds = (performance.now() - started) / 1000;
    received.push(...sink.received);

    const counts = new Map<string, number>();
    for (const mail of received) counts.set(mail.messageId, (counts.get(mail.messageId) ?? 0) + 1);
    const rows = await queryRows<{ id: string; deliveries: number }>(
      database.db,
      sql`select m.id, (select count(*)::int from letter_deliveries d where d.id = m.delivery_id) as deliveries
          from mail_outbox m where m.kind = 'letter'`,
    );
    const letterRows = await queryRows<{ letter_id: string; n: number }>(
      database.db,
      sql`select l.id as letter_id, count(d.id)::int as n from time_capsule_letters l
          left join letter_deliveries d on d.letter_id = l.id group by l.id`,
    );
    const [outbox] = await queryRows<{ given_up: number; retried: number }>(
      database.db,
      sql`select count(*) filter (where failed_at is not null)::int as given_up,
                 count(*) filter (where attempts > 1)::int as retried
          from mail_outbox`,
    );
    const mailCounts = rows.map((row) => counts.get(messageIdOf(row.id, PUBLIC_URL)) ?? 0);
    return [
      `chaos ${label}:`,
      `kills ${kills},`,
      `letters ${LETTERS},`,
      `delivered once ${letterRows.filter((row) => row.n === 1).length},`,
      `lost ${letterRows.filter((row) => row.n === 0).length},`,
      `duplicated ${letterRows.filter((row) => row.n > 1).length};`,
      `mails once ${mailCounts.filter((n) => n === 1).length},`,
      `lost ${mailCounts.filter((n) => n === 0).length},`,
      `duplicated ${mailCounts.filter((n) => n > 1).length};`,
      `mails retried ${outbox!.retried},`,
      `given up ${outbox!.given_up},`,
      `${seconds.toFixed(0)} s`,
    ].join(' ');
  } finally {
    process.off('exit', killAll);
    killAll();
    await Promise.all(instances.map((instance) => instance.exited));
    await sink.close().catch(() => undefined);
    await database.close();
    await created.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (values.only !== 'failing') process.stdout.write(`${await run('steady relay', false)}\n`);
if (values.only !== 'steady')
  process.stdout.write(`${await run('relay failing 30 % and away', true)}\n`);
