/**
 * Memorial figures: p99 of the three list calls of a page with 200 photos and 500
 * history entries at 50 connections, and of the paged album and history reads the screens
 * make, against the production server (`npm start`) on PGlite and, with DATABASE_URL,
 * PostgreSQL; and the bytes of a server-made thumbnail.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import { LIST_PAGE_SIZE } from '../contract/pages/memorialKeys';
import { openDatabase } from '../server/db/database';
import { albumPhotos, historyEntries } from '../server/db/schema';
import { checkImage } from '../server/domain/uploads/images';
import { jpegPhoto } from '../test/api/memorialSupport';
import { runLoad } from './load';
import { middlePageUrl } from './pagedLists';
import { createBenchSite, startServer, type BenchSite } from './server';
import type { BenchModule, BenchOptions, BenchRow } from './types';

const PORT = 4250;
const CONNECTIONS = 50;
const PHOTOS = 200;
const HISTORY_ENTRIES = 500;
/** Fifty readers queue on one event loop: 150 ms allows about 3 ms of CPU per answer. */
const P99_LIMIT_MS = 150;
const WARM_UP_SECONDS = 2;

/**
 * node:http judges the target; autocannon, a common generator, runs beside it for comparison.
 * On this machine's two cores the generator shares the CPU with the server and PostgreSQL,
 * and autocannon's JS parser turns every 27 kB answer into a string: 0.3-0.4 ms of CPU per
 * answer, more than the server's own, so it saturates a core near 2,500 answers a second and
 * its p99 is mostly its own queue.
 */
const GENERATORS = ['node:http', 'autocannon'] as const;
type Generator = (typeof GENERATORS)[number];

/** Writes the album and timeline rows straight to the site's database (no files needed). */
async function seedPage(site: BenchSite): Promise<void> {
  const database = await openDatabase(
    site.env.DATABASE_URL
      ? { kind: 'postgres', url: site.env.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.join(site.env.DATA_DIR!, 'pgdata') },
  );
  const pageId = site.member.memorialPageId;
  const key = () => randomBytes(16).toString('base64url');
  try {
    await database.db.insert(albumPhotos).values(
      Array.from({ length: PHOTOS }, (_, position) => {
        const id = key();
        return {
          memorialPageId: pageId,
          imageName: `uploads/${id}.jpg`,
          thumbnailName: `thumbs/${id}.webp`,
          contentType: 'image/jpeg',
          byteSize: 3_000_000,
          thumbnailBytes: 15_000,
          width: 4032,
          height: 3024,
          caption: `家族旅行の思い出 ${position + 1}`,
          takenOn: '2019-08-15',
          position,
        };
      }),
    );
    for (let start = 0; start < HISTORY_ENTRIES; start += 100) {
      await database.db.insert(historyEntries).values(
        Array.from({ length: 100 }, (_, index) => {
          const withPhoto = (start + index) % 4 === 0;
          const id = key();
          return {
            memorialPageId: pageId,
            occurredOn: `${1950 + ((start + index) % 75)}-04-01`,
            body: 'この年、家族みんなで新しい町に引っ越しました。桜のきれいな春でした。',
            imageName: withPhoto ? `uploads/${id}.jpg` : null,
            thumbnailName: withPhoto ? `thumbs/${id}.webp` : null,
          };
        }),
      );
    }
  } finally {
    await database.close();
  }
}

/** What a browser sends with every API call besides the token: JSON answers come gzipped. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

interface Measured {
  p99: number;
  requests: number;
  failures: number;
  answered: number;
  /** CPU of this process (the generator) per answer, ms. */
  generatorMs: number;
}

/**
 * One load of `url` by one generator: node:http (bench/load.ts, which judges the target) or
 * autocannon (kept beside it for comparison). Both run in
 * this process, so its CPU over the run is the generator's.
 */
async function loadOnce(
  generator: Generator,
  url: string,
  seconds: number,
  headers: Record<string, string>,
): Promise<Measured & { p50: number }> {
  const cpu = process.cpuUsage();
  let result: Omit<Measured, 'generatorMs'> & { p50: number };
  if (generator === 'autocannon') {
    const run = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
    result = {
      p50: run.latency.p50,
      p99: run.latency.p99,
      requests: run.requests.total,
      failures: run.non2xx + run.errors + run.timeouts,
      answered: run.requests.total - run.non2xx,
    };
  } else {
    const run = await runLoad({ url, connections: CONNECTIONS, durationSeconds: seconds, headers });
    result = {
      p50: run.p50,
      p99: run.p99,
      requests: run.requests,
      failures: run.non2xx + run.errors + run.timeouts,
      answered: run.requests - run.non2xx,
    };
  }
  const used = process.cpuUsage(cpu);
  return {
    ...result,
    generatorMs: (used.user + used.system) / 1000 / Math.max(1, result.requests),
  };
}

async function measure(
  url: string,
  token: string,
  generator: Generator,
  options: BenchOptions,
): Promise<Measured> {
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': BROWSER_ACCEPT_ENCODING };
  const probe = await fetch(url, { headers });
  if (!probe.ok) throw new Error(`${url} answered ${probe.status}: ${await probe.text()}`);
  await loadOnce(generator, url, WARM_UP_SECONDS, headers);
  const result = await loadOnce(generator, url, options.durationSeconds, headers);
  options.log(
    `${url} (${generator}): ${result.requests} requests, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${result.failures} failed, generator CPU ${result.generatorMs.toFixed(2)} ms per answer`,
  );
  return result;
}

/**
 * A repeated read of a list, as a browser revalidates the copy it holds: the ETag of the first
 * answer sent back in If-None-Match, answered 304 with no body while the list is unchanged.
 */
async function revalidation(url: string, token: string, name: string, kind: string) {
  const headers = { authorization: `Bearer ${token}` };
  const etag = (await fetch(url, { headers })).headers.get('etag') ?? '';
  const started = performance.now();
  const repeated = await fetch(url, { headers: { ...headers, 'if-none-match': etag } });
  const ms = performance.now() - started;
  return {
    name: `GET ${name} repeated with If-None-Match (${kind})`,
    value: ms,
    unit: 'ms' as const,
    target: 'answered 304',
    met: repeated.status === 304,
    note: `answered ${repeated.status}`,
  };
}

/** A load's row; `judged` rows (node:http's) carry the target. */
function loadRow(name: string, measured: Measured, judged: boolean): BenchRow {
  const { p99, failures, answered, generatorMs } = measured;
  const problem =
    failures > 0
      ? `${failures} failed requests`
      : answered === 0
        ? 'no request was answered'
        : undefined;
  return {
    name,
    value: answered > 0 ? p99 : undefined,
    unit: 'ms',
    ...(judged ? { target: `<= ${P99_LIMIT_MS} ms`, met: !problem && p99 <= P99_LIMIT_MS } : {}),
    note: [
      problem,
      `generator ${generatorMs.toFixed(2)} ms CPU/answer`,
      judged ? undefined : 'for comparison',
    ]
      .filter(Boolean)
      .join('; '),
  };
}

async function benchLists(kind: string, options: BenchOptions): Promise<BenchRow[]> {
  const site = await createBenchSite(kind === 'postgres' ? options.databaseUrl : undefined);
  try {
    await seedPage(site);
    // An empty DATABASE_URL keeps a DATABASE_URL of the bench's own environment from turning
    // the PGlite run into a run on that PostgreSQL server.
    const server = await startServer({ DATABASE_URL: '', ...site.env }, PORT);
    try {
      const pageId = site.member.memorialPageId;
      const calls = {
        album: `/v1/album/memorial_page_id/${pageId}/album`,
        histories: `/v1/history/get_histories_by_memorial_page_id/${pageId}`,
        admins: `/v1/memorial_page/get_memorial_page_admin/${pageId}`,
      };
      const rows: BenchRow[] = [];
      const token = site.member.token;
      for (const [name, call] of Object.entries(calls)) {
        for (const generator of GENERATORS) {
          const measured = await measure(`${server.url}${call}`, token, generator, options);
          rows.push(
            loadRow(
              `GET ${name} p99, ${PHOTOS} photos / ${HISTORY_ENTRIES} entries, ${CONNECTIONS} conn. (${kind}, ${generator})`,
              measured,
              generator === 'node:http',
            ),
          );
        }
      }
      // What the screens read: a page of a list at a time, the next by its cursor. Measured on
      // a page from the middle of each list, so the cursor's seek is in every answer.
      for (const name of ['album', 'histories'] as const) {
        const url = await middlePageUrl(`${server.url}${calls[name]}/paged`, token);
        const measured = await measure(url, token, 'node:http', options);
        rows.push(
          loadRow(
            `GET ${name}/paged p99, a page of ${LIST_PAGE_SIZE} from the middle, ${CONNECTIONS} conn. (${kind})`,
            measured,
            true,
          ),
        );
      }
      for (const name of ['album', 'histories'] as const) {
        rows.push(await revalidation(`${server.url}${calls[name]}`, site.member.token, name, kind));
      }
      return rows;
    } finally {
      await server.stop();
    }
  } finally {
    await site.remove();
  }
}

/** Thumbnail bytes of synthetic camera-sized photos, through the real upload check. */
async function benchThumbnails(): Promise<BenchRow> {
  const sizes: [number, number][] = [
    [4032, 3024],
    [3024, 4032],
    [1920, 1080],
  ];
  let total = 0;
  for (const [width, height] of sizes) {
    const name = `uploads/${randomBytes(16).toString('base64url')}.jpg`;
    total += (await checkImage(name, await jpegPhoto(width, height))).thumbnail.length;
  }
  return {
    name: 'thumbnail bytes per photo (WebP, fit 320 px)',
    value: total / sizes.length,
    unit: 'bytes',
    note: 'synthetic gradient photos',
  };
}

export const memorialBench: BenchModule = {
  title: 'memorial',
  async run(options) {
    const rows = await benchLists('pglite', options);
    if (options.databaseUrl) rows.push(...(await benchLists('postgres', options)));
    rows.push(await benchThumbnails());
    return rows;
  },
};
