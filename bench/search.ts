/**
 * User search and the unread count with 100,000 members, over real HTTP.
 * - Search p95: a fixed mix of queries (kana, kanji, katakana, half-width, partial, single
 *   character), one after another. Targets: ≤ 50 ms on PostgreSQL, ≤ 150 ms on PGlite.
 * - Unread count: requests per second at 50 connections (autocannon). Target on PostgreSQL:
 *   ≥ 5,000 req/s.
 * Run: `npx tsx bench/search.ts` (PGlite), or with
 * `API_TEST_DATABASE=postgres TEST_DATABASE_URL=postgres://…` for PostgreSQL.
 */
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { notify } from '../server/domain/social/notifications';
import { createMember } from '../test/support/members';
import { createTestApp } from '../test/support/testApp';
import { seedMembers } from './searchSeed';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const PORT = Number(process.env.BENCH_PORT ?? 4270);
const ROUNDS = 20;
const WARMUP_ROUNDS = 2;
const COUNT_CONNECTIONS = 50;
const COUNT_SECONDS = 10;

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

export interface BenchRow {
  name: string;
  value: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function benchSearch(): Promise<BenchRow[]> {
  const t = await createTestApp();
  try {
    const db = t.ctx.database.db;
    const kind = t.ctx.database.kind;
    const seedStarted = performance.now();
    await seedMembers(db, MEMBERS);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const searcher = await createMember(t);
    for (let i = 0; i < 30; i += 1) {
      await notify(
        db,
        searcher.id,
        'letter_delivered',
        { letterId: crypto.randomUUID(), senderName: 'bench', title: `letter ${i}` },
        t.clock.now(),
      );
    }
    const base = await t.app.listen({ host: '127.0.0.1', port: PORT });
    const headers = { authorization: `Bearer ${searcher.token}` };

    const timings: number[] = [];
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round += 1) {
      for (const query of SEARCH_QUERIES) {
        const started = performance.now();
        const response = await fetch(`${base}/v1/user_search?q=${encodeURIComponent(query)}`, {
          headers,
        });
        await response.json();
        if (!response.ok) throw new Error(`search failed: ${response.status}`);
        if (round >= WARMUP_ROUNDS) timings.push(performance.now() - started);
      }
    }
    timings.sort((a, b) => a - b);

    const counted = await autocannon({
      url: `${base}/v1/notification/user_notifications/unread/count`,
      headers,
      connections: COUNT_CONNECTIONS,
      duration: COUNT_SECONDS,
    });
    if (counted.non2xx > 0) throw new Error(`unread count answered ${counted.non2xx} errors`);

    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const members = MEMBERS.toLocaleString('en');
    return [
      { name: `User search p95, ${members} members (${kind})`, value: ms(percentile(timings, 95)) },
      { name: `User search p50 (${kind})`, value: ms(percentile(timings, 50)) },
      {
        name: `Unread count at ${COUNT_CONNECTIONS} connections (${kind})`,
        value: `${Math.round(counted.requests.average).toLocaleString('en')} req/s`,
      },
      { name: `Search seeding (${kind})`, value: `${seedSeconds.toFixed(0)} s` },
    ];
  } finally {
    await t.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchSearch();
  for (const row of rows) process.stdout.write(`${row.name}\t${row.value}\n`);
}
