/**
 * The production app on a bench site, but with a session check that lets every signed,
 * unexpired access token through: the "without the per-request session check" figure of the
 * http group, beside the real server's (bench/http.ts). Started by the bench only; the product
 * always checks the member's session epoch (server/domain/accounts/sessionCheck.ts).
 */
import path from 'node:path';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { startJobs } from '../server/jobs';

const config = loadConfig();
const database = await openDatabase(
  config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') },
);
const { app, ctx } = await buildApp(config, database, {
  sessions: {
    stands: async () => true,
    start: async () => undefined,
    close: async () => undefined,
  },
});
// As the real server runs them, so that both carry the same background work.
const jobs = config.runJobs ? startJobs(ctx) : { stop: async () => undefined };
await app.listen({ port: config.port, host: config.host });
process.once('SIGTERM', () => {
  void jobs
    .stop()
    .then(() => app.close())
    .then(() => database.close())
    .then(() => process.exit(0));
});
