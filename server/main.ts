import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import closeWithGrace from 'close-with-grace';
import lockfile from 'proper-lockfile';
import { buildApp } from './app';
import { ensureSpaBuild } from './pages/build';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db/database';
import { migrate } from './db/migrate';
import { currentRequestId } from './http/faults';
import { startJobs } from './jobs';

const say = (line: string) => process.stderr.write(`shinobu: ${line}\n`);

async function lockDataDir(config: Config): Promise<() => Promise<void>> {
  const lockPath = path.join(config.dataDir, 'shinobu.lock');
  const take = async () => {
    const unlock = await lockfile.lock(config.dataDir, {
      lockfilePath: lockPath,
      stale: 15_000,
      update: 5_000,
      onCompromised: () => {
        say(`DATA_DIR: lost the lock on ${config.dataDir}; stopping to protect the database`);
        process.exit(1);
      },
    });
    await writeLockHolder(lockPath);
    return unlock;
  };
  try {
    try {
      return await take();
    } catch (error) {
      // A holder killed without a chance to unlock (SIGKILL, power loss) is known by its pid.
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || !(await holderIsGone(lockPath)))
        throw error;
      say(`DATA_DIR: the previous holder of ${config.dataDir} is gone; taking its lock`);
      await rm(lockPath, { recursive: true, force: true });
      return await take();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new ConfigError([
        `DATA_DIR: ${config.dataDir} is in use by another running Shinobu; stop it or choose another DATA_DIR`,
      ]);
    }
    throw error;
  }
}

// Beside the lock, not in it: proper-lockfile takes a change inside the lock for a compromise.
const holderFile = (lockPath: string) => `${lockPath}.holder`;

async function writeLockHolder(lockPath: string): Promise<void> {
  await writeFile(holderFile(lockPath), JSON.stringify({ pid: process.pid, host: hostname() }));
}

/** True only when the lock names a process on this machine that no longer runs. */
async function holderIsGone(lockPath: string): Promise<boolean> {
  try {
    const holder = JSON.parse(await readFile(holderFile(lockPath), 'utf8')) as {
      pid: number;
      host: string;
    };
    if (holder.host !== hostname() || holder.pid === process.pid) return false;
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
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

  // SIGTERM/SIGINT: finish in-flight requests and running jobs, within SHUTDOWN_TIMEOUT_MS.
  // An uncaught exception or unhandled rejection: logged with the request it came from, then
  // the same close and a non-zero exit, so a supervisor restarts the process.
  closeWithGrace(
    {
      delay: config.shutdownTimeoutMs,
      logger: false,
      onTimeout: (delay) => app.log.error({ delay }, 'stopping took too long; exiting'),
    },
    async ({ signal, err }) => {
      if (err) {
        app.log.fatal(
          { err, requestId: currentRequestId() },
          'uncaught error; exiting so that a supervisor restarts the server',
        );
      } else {
        app.log.info({ signal }, 'stopping: finishing in-flight requests');
      }
      await jobs.stop();
      await app.close();
      await database.close();
      await unlock();
    },
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    for (const problem of error.problems) say(problem);
  } else {
    say(`failed to start: ${(error as Error).stack ?? String(error)}`);
  }
  process.exit(1);
});
