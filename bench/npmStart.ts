/**
 * `npm start` as a deploy meets it: spawn to the first 200 of /healthz on an existing
 * DATA_DIR (or database), then SIGTERM to npm's process under write load (history entries
 * from several clients) until npm has exited, drained and closed.
 */
import { spawn } from 'node:child_process';
import { createBenchSite } from './server';
import type { BenchModule, BenchOptions, BenchRow } from './types';

const PORT = 4275;
const RUNS = 3;
const WRITERS = 8;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startAndStop(
  kind: string,
  postgresUrl: string | undefined,
  log: BenchOptions['log'],
): Promise<BenchRow[]> {
  const site = await createBenchSite(postgresUrl);
  const url = `http://127.0.0.1:${PORT}`;
  const starts: number[] = [];
  const stops: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const startedAt = performance.now();
      const npm = spawn('npm', ['start', '--silent'], {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...site.env,
          PORT: String(PORT),
          PUBLIC_URL: url,
        },
        stdio: 'ignore',
        detached: true,
      });
      const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve));
      while (
        (await fetch(`${url}/healthz`).then(
          (r) => r.status,
          () => 0,
        )) !== 200
      ) {
        if (npm.exitCode !== null) throw new Error(`npm start exited (${npm.exitCode})`);
        await pause(10);
      }
      starts.push(performance.now() - startedAt);
      let writing = true;
      const writers = Array.from({ length: WRITERS }, async () => {
        while (writing) {
          const answer = await fetch(
            `${url}/v1/history/memorial_page_id/${site.member.memorialPageId}/history`,
            {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${site.member.token}`,
              },
              body: JSON.stringify({ occurred_on: '2012-04-01', body: 'bench', image_name: null }),
            },
          ).catch(() => undefined);
          if (!answer || answer.status === 503) return;
          await answer.arrayBuffer();
        }
      });
      await pause(1000);
      const stopAt = performance.now();
      process.kill(npm.pid!, 'SIGTERM');
      const code = await exited;
      stops.push(performance.now() - stopAt);
      writing = false;
      await Promise.all(writers);
      if (code !== 0) throw new Error(`npm start stopped with status ${code}`);
    }
  } finally {
    await site.remove();
  }
  log(
    `npm start (${kind}): starts ${starts.map(Math.round).join(', ')} ms, stops ${stops.map(Math.round).join(', ')} ms`,
  );
  const note = `median of ${RUNS}, existing data`;
  return [
    {
      name: `npm start to first 200 /healthz (${kind})`,
      value: median(starts),
      unit: 'ms',
      note,
    },
    {
      name: `SIGTERM to npm start until it exited, ${WRITERS} writers (${kind})`,
      value: median(stops),
      unit: 'ms',
      note,
    },
  ];
}

export const npmStartBench: BenchModule = {
  title: 'npm start and stop',
  async run({ databaseUrl, log }) {
    const rows = await startAndStop('pglite', undefined, log);
    if (databaseUrl) rows.push(...(await startAndStop('postgres', databaseUrl, log)));
    return rows;
  },
};
