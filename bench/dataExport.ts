/**
 * Data-export figures: the archive of a member with 1,000 album photos (about 200 KB each,
 * incompressible like a JPEG), built by the job's own code with the embedded store, in this
 * process, on PGlite and, with DATABASE_URL, PostgreSQL. Peak memory growth is the largest resident-set size sampled during the
 * build minus the size just before it: the build streams, so it must not grow with the
 * archive (at most 64 MB for an archive of about 200 MB).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { albumPhotos, dataExports } from '../server/db/schema';
import { systemClock } from '../server/lib/clock';
import { runDataExports } from '../server/domain/dataExport/requests';
import { createSealer } from '../server/domain/endingnote/sealing';
import { localStoreAt } from '../server/storage/copyObjects';
import { createMember } from '../test/support/members';
import { createPostgresDatabase } from '../test/support/testDatabase';
import type { BenchModule, BenchOptions, BenchRow } from './types';
import { japaneseTexts } from '../server/lib/translations';

const PHOTOS = 1_000;
const PHOTO_BYTES = 200 * 1024;
const GROWTH_TARGET_BYTES = 64 * 1024 * 1024;
const SAMPLE_MS = 20;

async function benchBuild(kind: 'pglite' | 'postgres', options: BenchOptions): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shinobu-bench-export-'));
  const postgres =
    kind === 'postgres'
      ? await createPostgresDatabase(options.databaseUrl!, 'shinobu_bench')
      : undefined;
  const database = await openDatabase(
    postgres
      ? { kind: 'postgres', url: postgres.url }
      : { kind: 'pglite', dataDir: path.join(dir, 'pgdata') },
  );
  try {
    await migrate(database);
    const clock = systemClock();
    const store = localStoreAt(path.join(dir, 'files'));
    const member = await createMember({
      ctx: { database },
      clock,
      config: { authSecret: randomBytes(32).toString('base64') },
    });
    options.log(`data export (${kind}): storing ${PHOTOS} photos...`);
    const rows: (typeof albumPhotos.$inferInsert)[] = [];
    for (let index = 0; index < PHOTOS; index += 1) {
      const imageName = `album/${randomBytes(16).toString('base64url')}.jpg`;
      await store.put(imageName, randomBytes(PHOTO_BYTES), 'image/jpeg');
      rows.push({
        memorialPageId: member.memorialPageId,
        imageName,
        thumbnailName: `album/${randomBytes(16).toString('base64url')}.webp`,
        contentType: 'image/jpeg',
        byteSize: PHOTO_BYTES,
        thumbnailBytes: 1,
        width: 1200,
        height: 900,
        caption: `写真 ${index + 1}`,
        position: index,
      });
    }
    await database.db.insert(albumPhotos).values(rows);
    const now = clock.now();
    await database.db
      .insert(dataExports)
      .values({ userId: member.id, status: 'requested', createdAt: now, updatedAt: now });

    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, SAMPLE_MS);
    const started = performance.now();
    const result = await runDataExports({
      db: database.db,
      sealer: createSealer(randomBytes(32).toString('base64')),
      store,
      clock,
      texts: japaneseTexts,
      publicUrl: 'http://127.0.0.1',
    });
    const elapsed = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    if (result.built !== 1) throw new Error(`the archive was not built: ${JSON.stringify(result)}`);
    const [built] = await database.db.select().from(dataExports);
    const growth = peak - baseline;
    return [
      { name: `build, ${PHOTOS} photos (${kind}, local files)`, value: elapsed, unit: 'ms' },
      { name: `archive size (${kind})`, value: built!.byteSize ?? undefined, unit: 'bytes' },
      {
        name: `peak memory growth while building (${kind})`,
        value: growth,
        unit: 'bytes',
        target: '<= 64 MB',
        met: growth <= GROWTH_TARGET_BYTES,
      },
    ];
  } finally {
    await database.close();
    await postgres?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const dataExportBench: BenchModule = {
  title: 'data export',
  async run(options) {
    const rows = await benchBuild('pglite', options);
    if (options.databaseUrl) rows.push(...(await benchBuild('postgres', options)));
    return rows;
  },
};
