/**
 * `npm run migrate-store` as an operator runs it: an embedded DATA_DIR moved to PostgreSQL,
 * refused while a server runs on it, counted by a dry run, then copied table by table.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseTarget } from '../../server/db/database';
import { dataTables } from '../../server/db/tableCopy';
import { localStoreAt } from '../../server/storage/copyObjects';
import { dataDirWithStore } from '../support/migratedStore';
import { populateStore, tableContents } from '../support/populatedStore';
import { createPostgresDatabase } from '../support/testDatabase';
import { runScript, startReadyServer, stopServer } from './serverProcess';

const SIZE = { members: 20, photos: 60, letters: 30 };
// Several processes start one after another, each loading PGlite or the server.
const SLOW = 420_000;
const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function contentsOf(target: DatabaseTarget) {
  const database = await openDatabase(target);
  try {
    return await tableContents(database.db, await dataTables(database.db));
  } finally {
    await database.close();
  }
}

describe('moving an embedded DATA_DIR to PostgreSQL', () => {
  it(
    'refuses while a server runs on it, counts in a dry run, then moves every row',
    async () => {
      const dataDir = dataDirWithStore(inject('migratedPgdata'), 'shinobu-migrate-store-');
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const embedded: DatabaseTarget = { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') };
      const source = await openDatabase(embedded);
      await populateStore(source.db, localStoreAt(path.join(dataDir, 'files')), SIZE);
      await source.close();
      const created = await createPostgresDatabase(serverUrl);
      cleanups.push(() => created.drop());
      const postgres: DatabaseTarget = { kind: 'postgres', url: created.url };
      const move = (...flags: string[]) =>
        runScript('scripts/migrateStore.ts', ['--to', created.url, ...flags], {
          DATA_DIR: dataDir,
        });

      const server = await startReadyServer({ DATA_DIR: dataDir, PORT: '4253' });
      cleanups.push(() => void server.child.kill('SIGKILL'));
      expect(await move()).toEqual({
        code: 1,
        stderr: `shinobu: DATA_DIR: ${dataDir} is in use by another running Shinobu (process ${server.child.pid}); stop it or choose another DATA_DIR\n`,
      });
      expect(await stopServer(server)).toBe(0);

      const dryRun = await move('--dry-run');
      expect(dryRun.code).toBe(0);
      expect(dryRun.stderr).toContain(`shinobu: users: ${SIZE.members} rows\n`);
      expect(dryRun.stderr).toContain(`shinobu: album_photos: ${SIZE.photos} rows\n`);
      expect(dryRun.stderr).toContain(`shinobu: time_capsule_letters: ${SIZE.letters} rows\n`);
      expect(dryRun.stderr).toMatch(
        /shinobu: would move \d+ rows and 120 files \(staying in DATA_DIR\/files\), [\d.]+ s\n$/,
      );
      // The dry run wrote nothing there: not even the schema.
      const untouched = await openDatabase(postgres);
      expect(await dataTables(untouched.db)).toEqual([]);
      await untouched.close();

      const moved = await move();
      expect(moved.stderr).toMatch(/shinobu: moved \d+ rows and 120 files/);
      const before = await contentsOf(embedded);
      expect(before.users).toHaveLength(SIZE.members);
      expect(before.album_photos).toHaveLength(SIZE.photos);
      expect(await contentsOf(postgres)).toEqual(before);

      expect((await move()).stderr).toContain('--to: the database already holds data (');
      // A server started on the moved store serves it.
      const onPostgres = await startReadyServer({
        DATA_DIR: dataDir,
        DATABASE_URL: created.url,
        PORT: '4253',
      });
      cleanups.push(() => void onPostgres.child.kill('SIGKILL'));
      expect(await stopServer(onPostgres)).toBe(0);
    },
    SLOW,
  );
});
