/**
 * `npm run backup` and `npm run restore` as an operator runs them: a populated store is backed
 * up, restored into an empty one, and every table and every file compared. The embedded store's
 * backup with the shortest pause, as docs/operations.md gives it: the server stopped only while
 * `pgdata/` is copied, the archive made from the copy while it serves again.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseTarget } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { dataTables } from '../../server/db/tableCopy';
import { localStoreAt } from '../../server/storage/copyObjects';
import { copyMigratedStore } from '../support/migratedStore';
import { populateStore, storeContents, tableContents } from '../support/populatedStore';
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

function newDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shinobu-backup-test-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function newPostgresDatabase(): Promise<string> {
  const created = await createPostgresDatabase(serverUrl);
  cleanups.push(() => created.drop());
  return created.url;
}

/** A ready server that the end of the file stops if its test did not. */
async function readyServer(env: Record<string, string>) {
  const server = await startReadyServer(env);
  cleanups.push(() => void server.child.kill('SIGKILL'));
  return server;
}

const databaseOf = (dataDir: string, url?: string): DatabaseTarget =>
  url ? { kind: 'postgres', url } : { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') };

/** A migrated store with members, pages, photos with their files and letters. */
async function populatedSite(dataDir: string, url?: string): Promise<void> {
  // The embedded store begins as a copy of the run's migrated one.
  if (!url) copyMigratedStore(inject('migratedPgdata'), dataDir);
  const database = await openDatabase(databaseOf(dataDir, url));
  await migrate(database);
  await populateStore(database.db, localStoreAt(path.join(dataDir, 'files')), SIZE);
  await database.close();
}

/** Every table (the migrations' record included) and every file of a store. */
async function contentsOf(dataDir: string, url?: string) {
  const database = await openDatabase(databaseOf(dataDir, url));
  try {
    const tables = [...(await dataTables(database.db)), 'schema_migrations'];
    return {
      tables: await tableContents(database.db, tables),
      files: await storeContents(localStoreAt(path.join(dataDir, 'files'))),
    };
  } finally {
    await database.close();
  }
}

function expectPopulated(contents: Awaited<ReturnType<typeof contentsOf>>): void {
  expect(contents.tables.users).toHaveLength(SIZE.members);
  expect(contents.tables.memorial_pages).toHaveLength(SIZE.members);
  expect(contents.tables.album_photos).toHaveLength(SIZE.photos);
  expect(contents.tables.time_capsule_letters).toHaveLength(SIZE.letters);
  expect(Object.keys(contents.files)).toHaveLength(2 * SIZE.photos);
}

describe('backup and restore of an embedded DATA_DIR', () => {
  it(
    'refuses while a server runs on it, then restores every table and file elsewhere',
    async () => {
      const source = newDir();
      await populatedSite(source);
      const archive = path.join(newDir(), 'shinobu.tar');

      const server = await readyServer({ DATA_DIR: source, PORT: '4251' });
      const refused = await runScript('scripts/backup.ts', [archive], { DATA_DIR: source });
      expect(refused).toEqual({
        code: 1,
        stderr: `shinobu: DATA_DIR: ${source} is in use by another running Shinobu (process ${server.child.pid}); stop it or choose another DATA_DIR\n`,
      });
      expect(await stopServer(server)).toBe(0);

      const backup = await runScript('scripts/backup.ts', [archive], { DATA_DIR: source });
      expect(backup.stderr).toMatch(
        new RegExp(
          `^shinobu: backup written to ${archive}: pglite database, 120 files, [\\d.]+ s\\n$`,
        ),
      );
      const target = path.join(newDir(), 'restored');
      const restore = await runScript('scripts/restore.ts', [archive], { DATA_DIR: target });
      expect(restore.stderr).toMatch(
        /^shinobu: restored .*: pglite database, 120 files, [\d.]+ s\n$/,
      );

      const before = await contentsOf(source);
      expectPopulated(before);
      expect(await contentsOf(target)).toEqual(before);
      // The generated secrets travel with the data they make readable.
      expect(readFileSync(path.join(target, 'secrets.json'), 'utf8')).toBe(
        readFileSync(path.join(source, 'secrets.json'), 'utf8'),
      );

      expect(await runScript('scripts/restore.ts', [archive], { DATA_DIR: target })).toEqual({
        code: 1,
        stderr: `shinobu: DATA_DIR: ${target} already holds a database; restore into an empty DATA_DIR\n`,
      });
      const restored = await readyServer({ DATA_DIR: target, PORT: '4251' });
      expect(await stopServer(restored)).toBe(0);
    },
    SLOW,
  );
});

describe('a backup of an embedded DATA_DIR with a pause only for the copy of pgdata/', () => {
  it(
    'archives the copy while the server serves again, and restores every table and file',
    async () => {
      const source = newDir();
      await populatedSite(source);
      const server = await readyServer({ DATA_DIR: source, PORT: '4251' });
      expect(await stopServer(server)).toBe(0);
      // The pause: copy the database folder and the generated secrets, then start again.
      const snap = path.join(newDir(), 'snap');
      cpSync(path.join(source, 'pgdata'), path.join(snap, 'pgdata'), {
        recursive: true,
        preserveTimestamps: true,
      });
      cpSync(path.join(source, 'secrets.json'), path.join(snap, 'secrets.json'));
      const serving = await readyServer({ DATA_DIR: source, PORT: '4251' });
      symlinkSync(path.join(source, 'files'), path.join(snap, 'files'));

      const archive = path.join(newDir(), 'shinobu.tar');
      const backup = await runScript('scripts/backup.ts', [archive], { DATA_DIR: snap });
      expect(backup.stderr).toMatch(
        new RegExp(
          `^shinobu: backup written to ${archive}: pglite database, 120 files, [\\d.]+ s\\n$`,
        ),
      );
      expect((await fetch(`${serving.baseUrl}/healthz`)).status).toBe(200);
      expect(await stopServer(serving)).toBe(0);

      const target = path.join(newDir(), 'restored');
      const restore = await runScript('scripts/restore.ts', [archive], { DATA_DIR: target });
      expect(restore.stderr).toMatch(
        /^shinobu: restored .*: pglite database, 120 files, [\d.]+ s\n$/,
      );
      const before = await contentsOf(source);
      expectPopulated(before);
      expect(await contentsOf(target)).toEqual(before);
      expect(readFileSync(path.join(target, 'secrets.json'), 'utf8')).toBe(
        readFileSync(path.join(source, 'secrets.json'), 'utf8'),
      );
    },
    SLOW,
  );
});

describe('backup and restore on PostgreSQL', () => {
  it(
    'backs up while a server runs and restores every table and file into an empty database',
    async () => {
      const source = newDir();
      const sourceUrl = await newPostgresDatabase();
      await populatedSite(source, sourceUrl);
      const archive = path.join(newDir(), 'shinobu.tar');

      const server = await readyServer({
        DATA_DIR: source,
        DATABASE_URL: sourceUrl,
        PORT: '4252',
      });
      const backup = await runScript('scripts/backup.ts', [archive], {
        DATA_DIR: source,
        DATABASE_URL: sourceUrl,
      });
      expect(backup.stderr).toMatch(/^shinobu: backup written to .*: postgres database, 120 files/);
      expect(await stopServer(server)).toBe(0);

      const target = newDir();
      const targetUrl = await newPostgresDatabase();
      const env = { DATA_DIR: target, DATABASE_URL: targetUrl };
      const restore = await runScript('scripts/restore.ts', [archive], env);
      expect(restore.stderr).toMatch(/^shinobu: restored .*: postgres database, 120 files/);

      const before = await contentsOf(source, sourceUrl);
      expectPopulated(before);
      expect(await contentsOf(target, targetUrl)).toEqual(before);

      expect(await runScript('scripts/restore.ts', [archive], env)).toEqual({
        code: 1,
        stderr:
          'shinobu: DATABASE_URL: the database already holds tables; restore into an empty database\n',
      });
      // An embedded backup is not restored into PostgreSQL: that is migrate-store's move.
      const embedded = newDir();
      await populatedSite(embedded);
      const embeddedArchive = path.join(embedded, 'embedded.tar');
      await runScript('scripts/backup.ts', [embeddedArchive], { DATA_DIR: embedded });
      const intoPostgres = await runScript('scripts/restore.ts', [embeddedArchive], {
        DATA_DIR: newDir(),
        DATABASE_URL: await newPostgresDatabase(),
      });
      expect(intoPostgres.stderr).toContain('this backup holds an embedded database');
    },
    SLOW,
  );
});
