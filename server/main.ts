import path from 'node:path';
import lockfile from 'proper-lockfile';
import { buildApp } from './app';
import { ensureSpaBuild } from './build';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db/database';
import { migrate } from './db/migrate';
import { startJobs } from './jobs';

const say = (line: string) => process.stderr.write(`shinobu: ${line}\n`);

async function lockDataDir(config: Config): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(config.dataDir, {
      lockfilePath: path.join(config.dataDir, 'shinobu.lock'),
      stale: 15_000,
      update: 5_000,
      onCompromised: () => {
        say(`DATA_DIR: lost the lock on ${config.dataDir}; stopping to protect the database`);
        process.exit(1);
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new ConfigError([
        `DATA_DIR: ${config.dataDir} is in use by another running Shinobu; stop it or choose another DATA_DIR`,
      ]);
    }
    throw error;
  }
}

async function open(config: Config): Promise<Database> {
  if (!config.databaseUrl)
    return openDatabase({ kind: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') });
  try {
    return await openDatabase({ kind: 'postgres', url: config.databaseUrl });
  } catch (error) {
    const host = new URL(config.databaseUrl).host;
    throw new ConfigError([
      `DATABASE_URL: cannot connect to PostgreSQL at ${host} (${(error as Error).message})`,
    ]);
  }
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const config = loadConfig();
  if (process.env.SHINOBU_SKIP_BUILD !== 'true') await ensureSpaBuild(say);
  // Only the embedded database needs the lock: PostgreSQL serves any number of instances.
  const unlock = config.databaseUrl ? async () => undefined : await lockDataDir(config);
  const database = await open(config);
  const applied = await migrate(database);
  const { app, ctx } = await buildApp(config, database);
  const jobs = config.runJobs ? startJobs(ctx) : { stop: async () => undefined };
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      migrationsApplied: applied.length,
      database: database.kind,
      readyInMs: Math.round(performance.now() - startedAt),
    },
    `Shinobu is ready at ${config.publicUrl}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing in-flight requests');
    await jobs.stop();
    await app.close();
    await database.close();
    await unlock();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    for (const problem of error.problems) say(problem);
  } else {
    say(`failed to start: ${(error as Error).stack ?? String(error)}`);
  }
  process.exit(1);
});
