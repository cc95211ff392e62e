/**
 * Crash run of letter delivery on PostgreSQL: N due letters, two server instances delivering
 * them, one of the two killed with SIGKILL at random moments and restarted at once, until the
 * number of kills is reached and every mail has left. An SMTP sink counts what arrived by
 * Message-ID. Then the same with a relay that refuses 30 % of mails and goes away for 60 s.
 *
 *   npm run chaos [-- --letters 2000] [-- --kills 100] [-- --database postgres://…]
 *
 * Prints one line per run: kills, letters, delivered once, lost, duplicated (mails arriving
 * more than once under one Message-ID), and for the mails the same three figures.
 */
import { parseArgs } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { queryRows } from '../server/db/rows';
import { messageIdOf } from '../server/mail/outbox';
import { seedDueLetters } from '../test/api/letterDeliverySeed';
import { startServer, type ServerProcess } from '../test/api/letterDeliveryServers';
import { startSmtpSink, type SmtpSink } from '../test/support/smtpSink';
import { createPostgresDatabase } from '../test/support/testDatabase';

const { values } = parseArgs({
  options: {
    letters: { type: 'string', default: '2000' },
    kills: { type: 'string', default: '100' },
    database: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    'relay-away-ms': { type: 'string', default: '60000' },
  },
});
const LETTERS = Number(values.letters);
const KILLS = Number(values.kills);
const RELAY_AWAY_MS = Number(values['relay-away-ms']);
const PORTS = [4243, 4244];
const PUBLIC_URL = 'http://127.0.0.1:4243';
const HOUR = 60 * 60 * 1000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(label: string, failingRelay: boolean): Promise<string> {
  const created = await createPostgresDatabase(values.database);
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 });
  let sink: SmtpSink = await startSmtpSink();
  const sinkPort = Number(new URL(sink.url).port);
  const received: SmtpSink['received'] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-chaos-'));
  const instances: ServerProcess[] = [];
  try {
    await migrate(database);
    await seedDueLetters(database.db, LETTERS, new Date(Date.now() + HOUR));
    if (failingRelay) sink.refuseShare(0.3);
    const start = (index: number) =>
      startServer({
        DATA_DIR: dataDir,
        PORT: String(PORTS[index]),
        PUBLIC_URL,
        DATABASE_URL: created.url,
        SMTP_URL: sink.url,
        CLOCK_OFFSET_MS: String(2 * HOUR),
        LOG_LEVEL: 'warn',
      });
    instances.push(start(0), start(1));

    const pending = async () =>
      (
        await queryRows<{ letters: number; mails: number }>(
          database.db,
          sql`select
            (select count(*)::int from time_capsule_letters where delivered_at is null) as letters,
            (select count(*)::int from mail_outbox where sent_at is null and failed_at is null) as mails`,
        )
      )[0]!;
    let kills = 0;
    let relayAway = false;
    while (kills < KILLS || (await pending()).letters + (await pending()).mails > 0) {
      await pause(200 + Math.random() * 1300);
      if (failingRelay && !relayAway && kills === Math.floor(KILLS / 2)) {
        // The relay goes away for a while: mails wait their backoff, then go out.
        relayAway = true;
        received.push(...sink.received);
        await sink.close();
        await pause(RELAY_AWAY_MS);
        sink = await startSmtpSink(sinkPort);
        sink.refuseShare(0.3);
      }
      if (kills >= KILLS) {
        // Kills done: let the backlog drain (claims of killed senders expire after 5 minutes,
        // retries wait their backoff); the database clock offset cannot be moved from here.
        await pause(1000);
        continue;
      }
      const index = Math.floor(Math.random() * 2);
      instances[index]!.child.kill('SIGKILL');
      await instances[index]!.exited;
      instances[index] = start(index);
      kills += 1;
    }
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
      `duplicated ${mailCounts.filter((n) => n > 1).length}`,
    ].join(' ');
  } finally {
    for (const instance of instances) instance.child.kill('SIGKILL');
    await Promise.all(instances.map((instance) => instance.exited));
    await sink.close().catch(() => undefined);
    await database.close();
    await created.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

process.stdout.write(`${await run('steady relay', false)}\n`);
process.stdout.write(`${await run('relay failing 30 % and away', true)}\n`);
