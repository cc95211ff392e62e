/**
 * Social figures against the production server (`npm start`) with 100,000
 * members, on PGlite and, with DATABASE_URL, PostgreSQL:
 * - user search p95 over a fixed mix of queries (kana, kanji, katakana, half-width, full-width,
 *   partial, one character), one request at a time; targets ≤ 150 ms (PGlite), ≤ 50 ms
 *   (PostgreSQL);
 * - the unread count at 50 connections (autocannon); target ≥ 5,000 req/s on PostgreSQL.
 * Members are seeded straight into the database before the server starts (bench/searchSeed.ts).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/database';
import { notify } from '../server/domain/social/notifications';
import { createBenchSite, startServer, type BenchSite } from './server';
import { seedMembers } from './searchSeed';
import type { BenchModule, BenchOptions, BenchRow } from './types';

/** In the social area's port range (4270-4279). */
const PORT = 4270;
const MEMBERS = Number(process.env.BENCH_SEARCH_MEMBERS ?? 100_000);
const UNREAD_NOTIFICATIONS = 30;
const ROUNDS = 20;
const WARM_UP_ROUNDS = 2;
const COUNT_CONNECTIONS = 50;
const COUNT_WARM_UP_SECONDS = 2;

/** What members type: whole and partial names, in every script the normaliser folds. */
export const SEARCH_QUERIES = [
  'さとうたろう',
  'やまだ',
  'やま',
  'たろ',
  'はなこ',
  '佐藤',
  '山田花子',
  '田中 一郎',
  'サトウ',
  'ｽｽﾞｷ',
  'ＫＡＴＯ',
  'いとうけんた',
  'ふじ',
  '藤',
  'や',
  '子',
] as const;

const TARGETS = {
  search: { pglite: 150, postgres: 50 },
  unreadPostgres: 5000,
} as const;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The population, and unread notifications for the site's member, before the server starts. */
async function seed(site: BenchSite): Promise<number> {
  const database = await openDatabase(
    site.env.DATABASE_URL
      ? { kind: 'postgres', url: site.env.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.join(site.env.DATA_DIR!, 'pgdata') },
  );
  try {
    const started = performance.now();
    await seedMembers(database.db, MEMBERS);
    for (let i = 0; i < UNREAD_NOTIFICATIONS; i += 1) {
      await notify(
        database.db,
        site.member.id,
        'letter_delivered',
        { letterId: crypto.randomUUID(), senderName: 'bench', title: `letter ${i}` },
        new Date(),
      );
    }
    // The state autovacuum keeps a live database in: planner statistics, and a visibility map
    // that lets the unread count's index-only scan skip the table. The bench's PostgreSQL runs
    // with autovacuum off, and PGlite has none, so a freshly seeded site would have neither.
    await database.db.execute(sql`VACUUM ANALYZE`);
    return (performance.now() - started) / 1000;
  } finally {
    await database.close();
  }
}

async function benchSocial(
  kind: 'pglite' | 'postgres',
  options: BenchOptions,
): Promise<BenchRow[]> {
  const site = await createBenchSite(kind === 'postgres' ? options.databaseUrl : undefined);
  try {
    const seedSeconds = await seed(site);
    options.log(`social (${kind}): seeded ${MEMBERS} members in ${seedSeconds.toFixed(0)} s`);
    const server = await startServer(site.env, PORT);
    try {
      const headers = { authorization: `Bearer ${site.member.token}` };
      const timings: number[] = [];
      for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round += 1) {
        for (const query of SEARCH_QUERIES) {
          const started = performance.now();
          const response = await fetch(
            `${server.url}/v1/user_search?q=${encodeURIComponent(query)}`,
            { headers },
          );
          await response.arrayBuffer();
          if (!response.ok) throw new Error(`search answered ${response.status}`);
          if (round >= WARM_UP_ROUNDS) timings.push(performance.now() - started);
        }
      }
      timings.sort((a, b) => a - b);
      const searchP95 = percentile(timings, 95);
      options.log(
        `user search (${kind}): p50 ${percentile(timings, 50).toFixed(1)} ms, p95 ${searchP95.toFixed(1)} ms`,
      );

      const countLoad = (duration: number) =>
        autocannon({
          url: `${server.url}/v1/notification/user_notifications/unread/count`,
          headers,
          connections: COUNT_CONNECTIONS,
          duration,
        });
      // As the http group does: the count's path is compiled and the pool filled first.
      await countLoad(COUNT_WARM_UP_SECONDS);
      const counted = await countLoad(options.durationSeconds);
      const failures = counted.non2xx + counted.errors + counted.timeouts;
      options.log(
        `unread count (${kind}): ${counted.requests.total} requests, ${counted.requests.average} req/s, p99 ${counted.latency.p99} ms, ${failures} failed`,
      );
      const searchTarget = TARGETS.search[kind];
      return [
        {
          name: `User search p95, ${MEMBERS.toLocaleString('en')} members (${kind})`,
          value: searchP95,
          unit: 'ms',
          target: `<= ${searchTarget} ms`,
          met: searchP95 <= searchTarget,
        },
        {
          name: `Unread count at ${COUNT_CONNECTIONS} connections (${kind})`,
          value: counted.requests.average,
          unit: 'req/s',
          ...(kind === 'postgres'
            ? {
                target: `>= ${TARGETS.unreadPostgres.toLocaleString('en')} req/s`,
                met: counted.requests.average >= TARGETS.unreadPostgres,
              }
            : {}),
          ...(failures > 0 ? { note: `${failures} failed requests` } : {}),
        },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await site.remove();
  }
}

export const socialBench: BenchModule = {
  title: 'social',
  run: async (options) => [
    ...(await benchSocial('pglite', options)),
    ...(options.databaseUrl ? await benchSocial('postgres', options) : []),
  ],
};
