import { BENCH_PORTS, createBenchSite, startServer } from './server';
import type { BenchModule, BenchOptions, BenchRow } from './types';

const STARTS = 5;
const COLD_START_LIMIT_MS = 3000;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function coldStart(
  kind: string,
  postgresUrl: string | undefined,
  log: BenchOptions['log'],
): Promise<BenchRow> {
  const site = await createBenchSite(postgresUrl);
  try {
    const times: number[] = [];
    for (let start = 0; start < STARTS; start += 1) {
      const server = await startServer(site.env, BENCH_PORTS.coldStart);
      times.push(server.readyMs);
      await server.stop();
    }
    log(`cold starts (${kind}): ${times.map((ms) => Math.round(ms)).join(', ')} ms`);
    const value = median(times);
    return {
      name: `cold start to first 200 /healthz (${kind}, existing data)`,
      value,
      unit: 'ms',
      target: '<= 3000 ms',
      met: value <= COLD_START_LIMIT_MS,
      note: `median of ${STARTS}, from spawning node scripts/start.mjs (npm start)`,
    };
  } finally {
    await site.remove();
  }
}

export const coldStartBench: BenchModule = {
  title: 'cold start',
  async run({ databaseUrl, log }) {
    const rows = [await coldStart('pglite', undefined, log)];
    if (databaseUrl) rows.push(await coldStart('postgres', databaseUrl, log));
    return rows;
  },
};
