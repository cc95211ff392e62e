/**
 * `npm start` as a deploy meets it: spawn to the first 200 of /healthz on an existing
 * DATA_DIR (or database), then SIGTERM under write load (history entries from clients that
 * keep their connections alive and from clients that open one per request) until npm has
 * exited, drained and closed: to npm's process alone and to the whole group, alternately.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createBenchSite } from './server';
import type { BenchModule, BenchOptions, BenchRow } from './types';

const PORT = 4275;
/** Runs per signal target (npm's process, the group). */
const RUNS = 3;
const WRITERS = 6;
const NEW_CONNECTION_WRITERS = 2;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The status of one POST, or the lowest cause of its failure (ECONNREFUSED, ECONNRESET...). */
type Outcome = number | string;

function failureCode(error: unknown): string {
  let cause = error as { code?: string; cause?: unknown; message?: string };
  while (cause.cause) cause = cause.cause as typeof cause;
  return cause.code ?? cause.message ?? String(error);
}

async function postKeptAlive(url: string, headers: Record<string, string>, body: string) {
  try {
    const answer = await fetch(url, { method: 'POST', headers, body });
    await answer.arrayBuffer();
    return answer.status;
  } catch (error) {
    return failureCode(error);
  }
}

function postOnNewConnection(url: string, headers: Record<string, string>, body: string) {
  return new Promise<Outcome>((resolve) => {
    const request = http.request(url, { method: 'POST', headers, agent: false }, (answer) => {
      answer.resume();
      answer.on('error', (error) => resolve(failureCode(error)));
      answer.on('end', () => resolve(answer.statusCode!));
    });
    request.on('error', (error) => resolve(failureCode(error)));
    request.end(body);
  });
}

async function startAndStop(
  kind: string,
  postgresUrl: string | undefined,
  log: BenchOptions['log'],
): Promise<BenchRow[]> {
  const site = await createBenchSite(postgresUrl);
  const url = `http://127.0.0.1:${PORT}`;
  const starts: number[] = [];
  const stops = { npm: [] as number[], group: [] as number[] };
  /** Answers neither 2xx, the drain's 503 nor a refused connection: resets, cut connections. */
  const faults: string[] = [];
  try {
    for (let run = 0; run < 2 * RUNS; run++) {
      const target = run % 2 === 0 ? 'npm' : 'group';
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
      const entries = `${url}/v1/history/memorial_page_id/${site.member.memorialPageId}/history`;
      const headers = {
        'content-type': 'application/json',
        authorization: `Bearer ${site.member.token}`,
      };
      const body = JSON.stringify({ occurred_on: '2012-04-01', body: 'bench', image_name: null });
      const posts = [
        ...Array<typeof postKeptAlive>(WRITERS).fill(postKeptAlive),
        ...Array<typeof postKeptAlive>(NEW_CONNECTION_WRITERS).fill(postOnNewConnection),
      ];
      const writers = posts.map(async (post) => {
        for (;;) {
          const outcome = await post(entries, headers, body);
          if (outcome === 201) continue;
          if (outcome !== 503 && outcome !== 'ECONNREFUSED') faults.push(String(outcome));
          return;
        }
      });
      await pause(1000);
      const stopAt = performance.now();
      process.kill(target === 'npm' ? npm.pid! : -npm.pid!, 'SIGTERM');
      const code = await exited;
      stops[target].push(performance.now() - stopAt);
      await Promise.all(writers);
      if (code !== 0) throw new Error(`npm start stopped with status ${code}`);
    }
  } finally {
    await site.remove();
  }
  log(
    `npm start (${kind}): starts ${starts.map(Math.round).join(', ')} ms, stops to npm ${stops.npm.map(Math.round).join(', ')} ms, to the group ${stops.group.map(Math.round).join(', ')} ms, faults ${faults.join(', ') || 'none'}`,
  );
  const note = `median of ${RUNS}, existing data`;
  const load = `${WRITERS} + ${NEW_CONNECTION_WRITERS} writers`;
  return [
    {
      name: `npm start to first 200 /healthz (${kind})`,
      value: median(starts),
      unit: 'ms',
      note: `median of ${2 * RUNS}, existing data`,
    },
    {
      name: `SIGTERM to npm's process until it exited, ${load} (${kind})`,
      value: median(stops.npm),
      unit: 'ms',
      note,
    },
    {
      name: `SIGTERM to the group until npm exited, ${load} (${kind})`,
      value: median(stops.group),
      unit: 'ms',
      note,
    },
    {
      name: `requests reset or cut in ${2 * RUNS} stops (${kind})`,
      value: faults.length,
      unit: 'count',
      target: '0',
      met: faults.length === 0,
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
