/**
 * Time-capsule figures:
 * - delivery throughput: 10,000 due letters, one recipient each, delivered by the delivery
 *   loop's own function (claim, delivery record, outbox mail, notification, in batches), in
 *   letters per second; on PGlite (a DATA_DIR on disk) and on PostgreSQL (target ≥ 500/s);
 * - p99 of the three list calls over real HTTP, each list holding 1,000 letters (≤ 50 ms).
 * Run: `npm run bench -- --only timecapsule` (DATABASE_URL adds the PostgreSQL rows), or
 * `npx tsx bench/timecapsule.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, type Database } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { issueAccessToken } from '../server/domain/accessTokens';
import { systemClock } from '../server/lib/clock';
import { deliverAllDueLetters } from '../server/domain/timecapsule/delivery';
import { japaneseTexts } from '../server/lib/translations';
import { seedLetters, seedMembers } from '../test/api/letterDeliverySeed';
import { createPostgresDatabase } from '../test/support/testDatabase';
import { LIST_PAGE_SIZE } from '../contract/pages/memorialKeys';
import { middlePageUrl } from './pagedLists';
import { createBenchSite, openSiteDatabase, startServer, type BenchSite } from './server';
import type { BenchModule, BenchOptions, BenchRow } from './types';

const DELIVERY_LETTERS = 10_000;
const LIST_LETTERS = 1_000;
const LIST_WARMUP = 20;
const LIST_REQUESTS = 200;
/** The time-capsule port range is 4260-4269; the tests use 4260-4262. */
const LIST_PORT = 4265;
const DELIVERY_TARGET_PER_SECOND = 500;
const LIST_P99_LIMIT_MS = 50;

interface BenchDatabase {
  database: Database;
  dataDir: string;
  remove(): Promise<void>;
}

/** A fresh, migrated database: PGlite in a new DATA_DIR, or a new database on PostgreSQL. */
async function freshDatabase(postgresServerUrl?: string): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-bench-letters-'));
  const scratch = postgresServerUrl ? await createPostgresDatabase(postgresServerUrl) : undefined;
  const database = await openDatabase(
    scratch
      ? { kind: 'postgres', url: scratch.url }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') },
  );
  await migrate(database);
  return {
    database,
    dataDir,
    remove: async () => {
      await database.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function deliveryThroughput(postgresServerUrl?: string): Promise<BenchRow> {
  const site = await freshDatabase(postgresServerUrl);
  try {
    const { db, kind } = site.database;
    const [writerId, readerId] = (await seedMembers(db, ['writer', 'reader'])) as [string, string];
    const dueAt = new Date();
    await seedLetters(db, { writerId, readerId, count: DELIVERY_LETTERS, dueAt });
    const startedAt = performance.now();
    const delivered = await deliverAllDueLetters({
      db,
      clock: systemClock(),
      publicUrl: 'http://127.0.0.1',
      texts: japaneseTexts,
    });
    const seconds = (performance.now() - startedAt) / 1000;
    if (delivered !== DELIVERY_LETTERS) throw new Error(`delivered ${delivered} letters`);
    const perSecond = delivered / seconds;
    return {
      name: `delivery throughput, ${DELIVERY_LETTERS.toLocaleString('en')} due letters (${kind})`,
      value: perSecond,
      // The bench table has no letters/s unit: the value is letters per second.
      unit: 'req/s',
      ...(kind === 'postgres'
        ? {
            target: `>= ${DELIVERY_TARGET_PER_SECOND}/s`,
            met: perSecond >= DELIVERY_TARGET_PER_SECOND,
          }
        : {}),
      note: `letters/s; ${seconds.toFixed(1)} s, one process, batches of 200`,
    };
  } finally {
    await site.remove();
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Writes the three members and their letters into the site's database; answers who they are. */
async function seedListSite(site: BenchSite) {
  const database = await openSiteDatabase(site);
  try {
    const { db, kind } = database;
    const [writerId, readerId, adminId] = (await seedMembers(db, [
      'writer',
      'reader',
      'admin',
    ])) as [string, string, string];
    const clock = systemClock();
    await seedLetters(db, { writerId: adminId, readerId, count: LIST_LETTERS, dueAt: clock.now() });
    await deliverAllDueLetters({ db, clock, publicUrl: 'http://127.0.0.1', texts: japaneseTexts });
    const future = new Date(clock.now().getTime() + 365 * 24 * 60 * 60 * 1000);
    await seedLetters(db, { writerId, readerId, adminId, count: LIST_LETTERS, dueAt: future });
    return { kind, writerId, readerId, adminId };
  } finally {
    await database.close();
  }
}

/** `LIST_REQUESTS` reads of `url` one after another (after a warm-up), their times sorted. */
async function sequentialReads<T>(
  url: string,
  token: string,
  isWhole: (answer: T) => boolean,
): Promise<number[]> {
  const timings: number[] = [];
  for (let i = 0; i < LIST_WARMUP + LIST_REQUESTS; i += 1) {
    const startedAt = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const answer = (await response.json()) as T;
    if (!response.ok || !isWhole(answer))
      throw new Error(`${url}: ${response.status}, ${JSON.stringify(answer).slice(0, 200)}`);
    if (i >= LIST_WARMUP) timings.push(performance.now() - startedAt);
  }
  return timings.sort((a, b) => a - b);
}

function listRow(name: string, timings: number[]): BenchRow {
  const p99 = percentile(timings, 99);
  return {
    name,
    value: p99,
    unit: 'ms',
    target: `<= ${LIST_P99_LIMIT_MS} ms`,
    met: p99 <= LIST_P99_LIMIT_MS,
    note: `p50 ${percentile(timings, 50).toFixed(1)} ms, ${LIST_REQUESTS} sequential requests`,
  };
}

/**
 * A writer with 1,000 unsent letters (each naming an admin, so the admin's list holds 1,000)
 * and a reader with 1,000 received letters, asked for their lists over real HTTP by a client
 * in this process, from the production server (`npm start`) in a process of its own.
 */
async function listLatency(postgresServerUrl?: string): Promise<BenchRow[]> {
  const site = await createBenchSite(postgresServerUrl);
  try {
    const { kind, writerId, readerId, adminId } = await seedListSite(site);
    const clock = systemClock();
    // Without the jobs: the thousand mails of the delivered letters would go out during the reads.
    const server = await startServer({ ...site.env, RUN_JOBS: 'false' }, LIST_PORT);
    try {
      const calls = [
        ['get_unsent_letters', writerId],
        ['get_admin_letters', adminId],
        ['get_received_letters', readerId],
      ] as const;
      const rows: BenchRow[] = [];
      for (const [call, userId] of calls) {
        const token = await issueAccessToken(userId, site.env.AUTH_SECRET!, clock);
        const whole = await sequentialReads(
          `${server.url}/v1/time_capsule_letter/${call}`,
          token,
          (list: unknown[]) => list.length === LIST_LETTERS,
        );
        rows.push(
          listRow(`GET ${call} p99, ${LIST_LETTERS.toLocaleString('en')} letters (${kind})`, whole),
        );
        // What the screens read: a page at a time, the next by its cursor; a page from the
        // middle of the list, so the cursor's seek is in every answer.
        const paged = await sequentialReads(
          await middlePageUrl(`${server.url}/v1/time_capsule_letter/${call}/paged`, token),
          token,
          (page: { items: unknown[] }) => page.items.length === LIST_PAGE_SIZE,
        );
        rows.push(
          listRow(
            `GET ${call}/paged p99, a page of ${LIST_PAGE_SIZE} from the middle of ${LIST_LETTERS.toLocaleString('en')} letters (${kind})`,
            paged,
          ),
        );
      }
      return rows;
    } finally {
      await server.stop();
    }
  } finally {
    await site.remove();
  }
}

export const timeCapsuleBench: BenchModule = {
  title: 'timecapsule',
  async run(options: BenchOptions) {
    const rows: BenchRow[] = [];
    for (const serverUrl of [undefined, options.databaseUrl]) {
      if (serverUrl === undefined && rows.length > 0) continue;
      options.log(`timecapsule: delivery on ${serverUrl ? 'postgres' : 'pglite'}`);
      rows.push(await deliveryThroughput(serverUrl));
      options.log(`timecapsule: lists on ${serverUrl ? 'postgres' : 'pglite'}`);
      rows.push(...(await listLatency(serverUrl)));
    }
    return rows;
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await timeCapsuleBench.run({
    databaseUrl: process.env.DATABASE_URL || undefined,
    durationSeconds: 10,
    log: (line) => process.stderr.write(`bench: ${line}\n`),
  });
  for (const row of rows)
    process.stdout.write(
      `${row.name}\t${row.value?.toFixed(1)}\t${row.target ?? ''}\t${row.note ?? ''}\n`,
    );
}
