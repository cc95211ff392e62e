/**
 * How cost grows with the service, on PostgreSQL: one production server (`npm start`) on one
 * database that grows from 1,000 to 10,000, 100,000 and 1,000,000 members, each with their own
 * memorial page, album photos, history entries, a connection, letters (one delivered, one
 * waiting) and notifications. At each size the same member's reads are timed:
 * - the album list of their page;
 * - the dashboard's reads (summary, ending note, letters waiting and received);
 * - user search over a fixed mix of queries.
 * Target: p99 at the largest size within 1.5 × p99 at the smallest.
 * Members are written with set-based SQL (users in batches, bench/searchSeed.ts); the search
 * grams and list versions follow through the database's own triggers, as in production.
 */
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Db } from '../server/db/database';
import { issueAccessToken } from '../server/domain/accessTokens';
import { systemClock } from '../server/lib/clock';
import { SEARCH_QUERIES } from './search';
import { seedMembers } from './searchSeed';
import { createBenchSite, openSiteDatabase, startServer, type BenchSite } from './server';
import type { BenchModule, BenchOptions, BenchRow } from './types';

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '1000,10000,100000,1000000')
  .split(',')
  .map((size) => Number(size));
const PHOTOS_PER_PAGE = 5;
const HISTORY_PER_PAGE = 3;
const NOTIFICATIONS_PER_MEMBER = 3;
/** The timed member's own page and connections, the same at every size. */
const OWN_PHOTOS = 50;
const OWN_CONNECTIONS = 20;
const WARM_UP = 20;
/** Enough reads that a p99 is twenty slow ones, not three: one slow read moves it no longer. */
const REQUESTS = 2000;
const GROWTH_LIMIT = 1.5;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A port nobody listens on now, for the server this group starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Everything a member has, for every member who has none of it yet: a page of their own with
 * its admin row, photos and history, a connection both ways to the member after them, a
 * delivered letter and a waiting one to that connection, and notifications.
 */
async function seedBelongings(db: Db): Promise<void> {
  await db.execute(sql`
    insert into memorial_pages (owner_user_id, type, last_name, first_name, last_name_kana,
      first_name_kana, created_by)
    select u.id, 'self', u.last_name, u.first_name, u.last_name_kana, u.first_name_kana, u.id
    from users u
    where not exists (
      select 1 from memorial_pages p where p.owner_user_id = u.id and p.type = 'self')`);
  await db.execute(sql`
    insert into memorial_page_members (memorial_page_id, user_id, role)
    select p.id, p.owner_user_id, 'admin' from memorial_pages p
    where not exists (select 1 from memorial_page_members m where m.memorial_page_id = p.id)`);
  await db.execute(sql`
    insert into album_photos (memorial_page_id, image_name, thumbnail_name, content_type,
      byte_size, thumbnail_bytes, width, height, caption, taken_on, position)
    select p.id, 'uploads/' || p.id || '-' || n || '.jpg', 'thumbs/' || p.id || '-' || n || '.webp',
      'image/jpeg', 3000000, 15000, 4032, 3024, '家族旅行の思い出 ' || n, date '2019-08-15', n
    from memorial_pages p cross join generate_series(0, ${PHOTOS_PER_PAGE - 1}) as n
    where not exists (select 1 from album_photos a where a.memorial_page_id = p.id)`);
  await db.execute(sql`
    insert into history_entries (memorial_page_id, occurred_on, body)
    select p.id, make_date(1950 + n * 20, 4, 1), 'この年、家族みんなで新しい町に引っ越しました。'
    from memorial_pages p cross join generate_series(0, ${HISTORY_PER_PAGE - 1}) as n
    where not exists (select 1 from history_entries h where h.memorial_page_id = p.id)`);
  // Each member without a connection is connected to the member whose id follows theirs
  // (the first one, for the last), both ways; 60 days ago, outside the dashboard's news window.
  await db.execute(sql`
    with lonely as (
      select u.id,
        coalesce((select v.id from users v where v.id > u.id order by v.id limit 1),
                 (select v.id from users v where v.id <> u.id order by v.id limit 1)) as other
      from users u
      where not exists (select 1 from connections c where c.user_id = u.id)
    )
    insert into connections (user_id, other_user_id, relationship, created_at)
    select id, other, 'friend', now() - interval '60 days' from lonely
    union all
    select other, id, 'friend', now() - interval '60 days' from lonely
    on conflict do nothing`);
  await db.execute(sql`
    with writers as (
      select u.id as writer,
        (select c.other_user_id from connections c where c.user_id = u.id
         order by c.other_user_id limit 1) as reader
      from users u
      where not exists (select 1 from time_capsule_letters l where l.sender_user_id = u.id)
    ), letters as (
      insert into time_capsule_letters (sender_user_id, title, body, rule, send_at, due_at,
        delivered_at)
      select writer, '手紙 ' || k, '本文', 'date',
        now() + (case k when 0 then interval '-10 days' else interval '1 year' end),
        now() + (case k when 0 then interval '-10 days' else interval '1 year' end),
        case k when 0 then now() - interval '10 days' end
      from writers cross join generate_series(0, 1) as k
      returning id, sender_user_id, delivered_at
    ), recipients as (
      insert into time_capsule_letter_recipients (letter_id, position, user_id)
      select l.id, 0, w.reader from letters l join writers w on w.writer = l.sender_user_id
      returning id, letter_id, user_id
    )
    insert into letter_deliveries (letter_id, recipient_id, recipient_user_id, delivered_at, late)
    select r.letter_id, r.id, r.user_id, l.delivered_at, false
    from recipients r join letters l on l.id = r.letter_id
    where l.delivered_at is not null`);
  await db.execute(sql`
    insert into notifications (user_id, kind, payload, created_at, read_at)
    select u.id, 'letter_delivered',
      jsonb_build_object('letterId', gen_random_uuid(), 'senderName', '佐藤 太郎', 'title', '手紙'),
      now() - n * interval '1 day', case when n > 0 then now() end
    from users u cross join generate_series(0, ${NOTIFICATIONS_PER_MEMBER - 1}) as n
    where not exists (select 1 from notifications x where x.user_id = u.id)`);
}

/** The timed member: a larger album and a few connections, written once before the first size. */
async function seedTimedMember(db: Db, site: BenchSite, connectTo: string[]): Promise<void> {
  const pageId = site.member.memorialPageId;
  await db.execute(sql`
    insert into album_photos (memorial_page_id, image_name, thumbnail_name, content_type,
      byte_size, thumbnail_bytes, width, height, caption, taken_on, position)
    select ${pageId}, 'uploads/' || ${pageId} || '-' || n || '.jpg',
      'thumbs/' || ${pageId} || '-' || n || '.webp', 'image/jpeg', 3000000, 15000, 4032, 3024,
      '家族旅行の思い出 ' || n, date '2019-08-15', n
    from generate_series(0, ${OWN_PHOTOS - 1}) as n`);
  for (const other of connectTo) {
    await db.execute(sql`
      insert into connections (user_id, other_user_id, relationship, created_at)
      values (${site.member.id}, ${other}, 'friend', now() - interval '5 days'),
             (${other}, ${site.member.id}, 'friend', now() - interval '5 days')
      on conflict do nothing`);
  }
}

/** Grows the site's database to `size` members with their belongings; answers the seconds. */
async function growTo(site: BenchSite, size: number, current: number): Promise<number> {
  const database = await openSiteDatabase(site);
  try {
    const started = performance.now();
    const added = await seedMembers(database.db, size - current, 20261127 + size);
    if (current === 0) {
      await seedTimedMember(database.db, site, added.slice(0, OWN_CONNECTIONS));
    }
    await seedBelongings(database.db);
    // The state autovacuum keeps a live database in (the bench's PostgreSQL may run without it).
    await database.db.execute(sql`VACUUM ANALYZE`);
    return (performance.now() - started) / 1000;
  } finally {
    await database.close();
  }
}

/** p99 and p50 of `REQUESTS` reads one at a time, each of the `urls` in turn. */
async function timeReads(urls: string[], token: string): Promise<{ p50: number; p99: number }> {
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' };
  const timings: number[] = [];
  for (let i = 0; i < WARM_UP + REQUESTS; i += 1) {
    const url = urls[i % urls.length]!;
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    if (i >= WARM_UP) timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  return { p50: percentile(timings, 50), p99: percentile(timings, 99) };
}

/** The dashboard's reads as the home screen makes them: all four at once. */
async function timeDashboard(base: string, site: BenchSite): Promise<{ p50: number; p99: number }> {
  const headers = { authorization: `Bearer ${site.member.token}`, 'accept-encoding': 'gzip' };
  const urls = [
    `${base}/v1/dashboard`,
    `${base}/v1/endingnote/${site.member.id}`,
    `${base}/v1/time_capsule_letter/get_unsent_letters`,
    `${base}/v1/time_capsule_letter/get_received_letters`,
  ];
  const timings: number[] = [];
  for (let i = 0; i < WARM_UP + REQUESTS; i += 1) {
    const started = performance.now();
    await Promise.all(
      urls.map(async (url) => {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      }),
    );
    if (i >= WARM_UP) timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  return { p50: percentile(timings, 50), p99: percentile(timings, 99) };
}

const READS = ['album list', 'dashboard reads', 'user search'] as const;
type Read = (typeof READS)[number];

async function benchScale(databaseUrl: string, options: BenchOptions): Promise<BenchRow[]> {
  const site = await createBenchSite(databaseUrl);
  const rows: BenchRow[] = [];
  const p99s = new Map<Read, number[]>(READS.map((read) => [read, []]));
  const p50s = new Map<Read, number[]>(READS.map((read) => [read, []]));
  try {
    const server = await startServer(site.env, await freePort());
    try {
      let current = 0;
      for (const size of SIZES) {
        const seconds = await growTo(site, size, current);
        current = size;
        options.log(
          `scale: ${size.toLocaleString('en')} members seeded in ${seconds.toFixed(0)} s`,
        );
        // The largest size takes longer to seed than an access token lives.
        site.member.token = await issueAccessToken(
          site.member.id,
          site.env.AUTH_SECRET!,
          systemClock(),
        );
        const figures: Record<Read, { p50: number; p99: number }> = {
          'album list': await timeReads(
            [`${server.url}/v1/album/memorial_page_id/${site.member.memorialPageId}/album`],
            site.member.token,
          ),
          'dashboard reads': await timeDashboard(server.url, site),
          'user search': await timeReads(
            SEARCH_QUERIES.map(
              (query) => `${server.url}/v1/user_search?q=${encodeURIComponent(query)}`,
            ),
            site.member.token,
          ),
        };
        for (const read of READS) {
          const { p50, p99 } = figures[read];
          p99s.get(read)!.push(p99);
          p50s.get(read)!.push(p50);
          options.log(
            `scale: ${read}, ${size} members: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
          );
          rows.push({
            name: `${read} p99, ${size.toLocaleString('en')} members (postgres)`,
            value: p99,
            unit: 'ms',
            note: `p50 ${p50.toFixed(1)} ms; ${REQUESTS} reads one at a time${
              read === 'dashboard reads' ? ', the four calls at once' : ''
            }`,
          });
        }
      }
    } finally {
      await server.stop();
    }
  } finally {
    await site.remove();
  }
  for (const read of READS) {
    const series = p99s.get(read)!;
    const growth = series.at(-1)! / series[0]!;
    const medians = p50s.get(read)!;
    rows.push({
      name: `${read} p99 at ${SIZES.at(-1)!.toLocaleString('en')} ÷ at ${SIZES[0]!.toLocaleString('en')} members (postgres)`,
      value: growth,
      unit: 'ratio',
      target: `<= ${GROWTH_LIMIT}`,
      met: growth <= GROWTH_LIMIT,
      note: `p50 ratio ${(medians.at(-1)! / medians[0]!).toFixed(2)}`,
    });
  }
  return rows;
}

export const scaleBench: BenchModule = {
  title: 'scale',
  async run(options) {
    if (!options.databaseUrl) {
      return [
        {
          name: 'cost growth with members',
          value: undefined,
          unit: 'ratio',
          note: 'PostgreSQL only: set DATABASE_URL',
        },
      ];
    }
    return benchScale(options.databaseUrl, options);
  },
};
