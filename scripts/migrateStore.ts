/**
 * Moves the embedded DATA_DIR (PGlite and local files) to PostgreSQL and, with --s3, its files
 * to the bucket that S3_* name (docs/operations.md, "Moving to PostgreSQL and S3").
 *
 *   npm run migrate-store -- --to postgres://… [--s3] [--dry-run]
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadStoreConfig } from '../server/config';
import { runCommand, say } from '../server/operations/command';
import { moveStore } from '../server/operations/migrateStore';

runCommand(async () => {
  const { values } = parseArgs({
    options: {
      to: { type: 'string' },
      s3: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
    },
  });
  if (!values.to?.match(/^postgres(ql)?:\/\//)) {
    throw new ConfigError(['usage: npm run migrate-store -- --to postgres://… [--s3] [--dry-run]']);
  }
  const config = loadStoreConfig({ ...process.env, DATABASE_URL: undefined });
  if (values.s3 && !config.s3) {
    throw new ConfigError([
      '--s3: set S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY to the bucket to fill',
    ]);
  }
  const dryRun = values['dry-run'];
  const startedAt = performance.now();
  const counts = await moveStore({
    dataDir: config.dataDir,
    databaseUrl: values.to,
    s3: values.s3 ? config.s3 : undefined,
    dryRun,
  });
  for (const [table, rows] of Object.entries(counts.rows)) say(`${table}: ${rows} rows`);
  const rows = Object.values(counts.rows).reduce((sum, count) => sum + count, 0);
  const files = values.s3
    ? `${counts.files} files`
    : `${counts.files} files (staying in DATA_DIR/files)`;
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  say(`${dryRun ? 'would move' : 'moved'} ${rows} rows and ${files}, ${seconds} s`);
});
