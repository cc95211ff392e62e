/**
 * One archive of the database and the stored files of the Shinobu that DATA_DIR,
 * DATABASE_URL and S3_* name (docs/operations.md, "Backup and restore").
 *
 *   npm run backup -- FILE
 */
import { loadStoreConfig, ConfigError } from '../server/config';
import { runCommand, say } from '../server/operations/command';
import { writeBackup } from '../server/operations/backup';

runCommand(async () => {
  const file = process.argv[2];
  if (!file) throw new ConfigError(['usage: npm run backup -- FILE']);
  const startedAt = performance.now();
  const manifest = await writeBackup(loadStoreConfig(), file);
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  say(
    `backup written to ${file}: ${manifest.database} database, ${manifest.files} files, ${seconds} s`,
  );
});
