/**
 * Rebuilds an empty DATA_DIR, or an empty PostgreSQL database (DATABASE_URL) and store, from
 * an archive of `npm run backup` (docs/operations.md, "Backup and restore").
 *
 *   npm run restore -- FILE
 */
import { loadStoreConfig, ConfigError } from '../server/config';
import { runCommand, say } from '../server/operations/command';
import { restoreBackup } from '../server/operations/backup';

runCommand(async () => {
  const file = process.argv[2];
  if (!file) throw new ConfigError(['usage: npm run restore -- FILE']);
  const startedAt = performance.now();
  const manifest = await restoreBackup(loadStoreConfig(), file);
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  say(
    `restored ${file} (taken ${manifest.createdAt}): ${manifest.database} database, ${manifest.files} files, ${seconds} s`,
  );
});
