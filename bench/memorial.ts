/**
 * Memorial figures (issue 5): p99 of the three list calls of a page with 200 photos and 500
 * history entries at 50 connections, against the production server (`tsx server/main.ts`)
 * on PGlite and, with DATABASE_URL, PostgreSQL; and the bytes of a server-made thumbnail.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../server/db/database';
import { albumPhotos, historyEntries } from '../server/db/schema';
import { registerUploadedImage } from '../server/domain/memorial/images';
import { createLocalStore } from '../server/storage/localStore';
import { systemClock } from '../server/domain/clock';
import { jpegPhoto } from '../test/api/memorialSupport';
import { createBenchSite, startServer, type BenchSite } from './server';
import type { BenchModule, BenchOptions, BenchRow } from './types';

const PORT = 4250;
const CONNECTIONS = 50;
const PHOTOS = 200;
const HISTORY_ENTRIES = 500;
const P99_LIMIT_MS = 50;
const WARM_UP_SECONDS = 2;

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

/**
 * What a browser sends with every API call besides the token: the lists answer gzip to a
 * client that accepts it (server/http/keptJson.ts), as every browser does.
 */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

async function measure(url: string, token: string, options: BenchOptions) {
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': BROWSER_ACCEPT_ENCODING };
  const probe = await fetch(url, { headers });
  if (!probe.ok) throw new Error(`${url} answered ${probe.status}: ${await probe.text()}`);
  await autocannon({ url, connections: CONNECTIONS, duration: WARM_UP_SECONDS, headers });
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: options.durationSeconds,
    headers,
  });
  options.log(
    `${url}: ${result.requests.total} requests, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
  );
  return {
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    answered: result.requests.total - result.non2xx,
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
      for (const [name, call] of Object.entries(calls)) {
        const { p99, failures, answered } = await measure(
          `${server.url}${call}`,
          site.member.token,
          options,
        );
        const note = failures > 0 ? `${failures} failed requests` : undefined;
        rows.push({
          name: `GET ${name} p99, ${PHOTOS} photos / ${HISTORY_ENTRIES} entries, ${CONNECTIONS} conn. (${kind})`,
          value: answered > 0 ? p99 : undefined,
          unit: 'ms',
          target: `<= ${P99_LIMIT_MS} ms`,
          met: answered > 0 && p99 <= P99_LIMIT_MS && !note,
          ...(note ? { note } : answered === 0 ? { note: 'no request was answered' } : {}),
        });
      }
      return rows;
    } finally {
      await server.stop();
    }
  } finally {
    await site.remove();
  }
}

/** Thumbnail bytes of synthetic camera-sized photos, through the real registration path. */
async function benchThumbnails(root: string): Promise<BenchRow> {
  const store = createLocalStore({
    root,
    publicUrl: 'http://127.0.0.1',
    secret: 'bench',
    clock: systemClock(),
  });
  const sizes: [number, number][] = [
    [4032, 3024],
    [3024, 4032],
    [1920, 1080],
  ];
  let total = 0;
  for (const [width, height] of sizes) {
    const name = `uploads/${randomBytes(16).toString('base64url')}.jpg`;
    await store.put(name, await jpegPhoto(width, height), 'image/jpeg');
    total += (await registerUploadedImage(store, name, 'image_name')).thumbnailBytes;
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
    const root = mkdtempSync(path.join(tmpdir(), 'shinobu-bench-thumbs-'));
    try {
      rows.push(await benchThumbnails(root));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    return rows;
  },
};
