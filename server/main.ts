import path from 'node:path';
import closeWithGrace from 'close-with-grace';
import Fastify from 'fastify';
import { buildApp } from './app';
import { ensureSpaBuild } from './pages/build';
import { ConfigError, loadConfig, type Config } from './config';
import { lockDataDir } from './db/dataDirLock';
import { openDatabase, type Database } from './db/database';
import { migrate } from './db/migrate';
import { currentRequestId } from './http/faults';
import { loggerOptions } from './http/logging';
import { startJobs } from './jobs';

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

const say = (line: string) => process.stderr.write(`shinobu: ${line}\n`);

async function open(config: Config): Promise<Database> {
  if (!config.databaseUrl)
    return openDatabase({ kind: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') });
  try {
    return await openDatabase({
      kind: 'postgres',
      url: config.databaseUrl,
      timeouts: config.databaseTimeouts,
    });
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
  const unlock = config.databaseUrl ? async () => undefined : await lockDataDir(config.dataDir);
  const database = await open(config);
  const applied = await migrate(database);
  const { app, ctx, draining } = await buildApp(config, database);
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

  // SIGTERM/SIGINT: answer 503 to new requests, finish those in flight and the running jobs,
  // stop accepting once clients are silent (installDraining), within SHUTDOWN_TIMEOUT_MS. An uncaught exception or unhandled rejection:
  // logged with the request it came from, then the same close and a non-zero exit, so a
  // supervisor restarts the process.
  let stopping = false;
  const stop = closeWithGrace(
    {
      delay: config.shutdownTimeoutMs,
      logger: false,
      // Taken below: close-with-grace would exit at once on a second one.
      skip: [...STOP_SIGNALS],
      onTimeout: (delay) => app.log.error({ delay }, 'stopping took too long; exiting'),
    },
    async ({ err }) => {
      stopping = true;
      if (err) {
        app.log.fatal(
          { err, requestId: currentRequestId() },
          'uncaught error; exiting so that a supervisor restarts the server',
        );
      }
      // Half the time limit for the drain; the rest for what is left in flight and the database.
      const drainDeadline = performance.now() + config.shutdownTimeoutMs / 2;
      await Promise.all([jobs.stop(), draining.drain(drainDeadline)]);
      await app.close();
      await database.close();
      await unlock();
    },
  );
  // The same stop may be signalled twice: to the whole process group, `npm start` passes its
  // own copy on to this process. A repeat changes nothing; SHUTDOWN_TIMEOUT_MS still bounds it.
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      if (stopping) return app.log.info({ signal }, 'already stopping');
      app.log.info({ signal }, 'stopping: finishing in-flight requests');
      void stop.close();
    });
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    for (const problem of error.problems) say(problem);
    // The session layer's codes also as structured lines, as the running server logs them.
    const log = Fastify({ logger: loggerOptions('info') }).log;
    for (const code of error.codes) log.fatal({ code }, 'cannot start: configuration refused');
  } else {
    say(`failed to start: ${(error as Error).stack ?? String(error)}`);
  }
  process.exit(1);
});
