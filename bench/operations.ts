/**
 * The crash and soak runs' bench rows: `npm run chaos` short (10 kills, 200 letters, both the
 * steady and the failing relay) and `npm run soak` for 5 minutes, each run as its own script
 * (scripts/chaos.ts, scripts/soak.ts) and read from the lines it prints. Both need PostgreSQL:
 * without DATABASE_URL their rows say so.
 * Run: `DATABASE_URL=postgres://… npm run bench -- --only chaos,soak`.
 */
import { spawn } from 'node:child_process';
import type { BenchModule, BenchOptions, BenchRow } from './types';

const CHAOS = { kills: 10, letters: 200 };
const SOAK_MINUTES = 5;
/** Within this factor of the second minute, the last minute is flat (scripts/soak.ts). */
const FLAT = 1.5;
/** Other than the full run's 4243-4244, so a full run may go on beside the bench. */
const CHAOS_PORTS = '4255,4256';

/** Runs a script of scripts/ to its end; answers what it printed, or throws with its errors. */
function runScript(script: string, args: string[], options: BenchOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of chunk.toString().split('\n').filter(Boolean)) options.log(line);
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${script} exited with ${code}: ${errors.trim().split('\n').at(-1)}`)),
    );
  });
}

const notMeasured = (name: string): BenchRow[] => [
  { name, value: undefined, unit: 'count', note: 'needs DATABASE_URL (PostgreSQL)' },
];

const CHAOS_LINE =
  /^chaos (.+): kills (\d+), letters (\d+), delivered once (\d+), lost (\d+), duplicated (\d+); mails once (\d+), lost (\d+), duplicated (\d+); mails retried (\d+), given up (\d+), (\d+) s$/;

/** The rows of one line of scripts/chaos.ts. */
export function chaosRows(line: string): BenchRow[] {
  const match = CHAOS_LINE.exec(line);
  if (!match) throw new Error(`not a chaos line: ${line}`);
  const [
    ,
    label,
    kills,
    letters,
    once,
    lost,
    duplicated,
    ,
    mailsLost,
    mailsTwice,
    retried,
    givenUp,
    seconds,
  ] = match as unknown as string[];
  const name = (figure: string) => `chaos, ${label}: ${figure}`;
  const zero = (value: string) => ({ value: Number(value), target: '0', met: value === '0' });
  return [
    {
      name: name('letters delivered once'),
      value: Number(once),
      unit: 'count',
      target: letters,
      met: once === letters,
      note: `${kills} kills, ${letters} letters, ${seconds} s`,
    },
    { name: name('letters lost'), unit: 'count', ...zero(lost!) },
    { name: name('letters duplicated'), unit: 'count', ...zero(duplicated!) },
    { name: name('mails lost at the relay'), unit: 'count', ...zero(mailsLost!) },
    {
      name: name('mails arriving twice (one Message-ID)'),
      value: Number(mailsTwice),
      unit: 'count',
      note: `${retried} mails retried, ${givenUp} given up`,
    },
  ];
}

export const chaosBench: BenchModule = {
  title: 'chaos',
  async run(options) {
    if (!options.databaseUrl) return notMeasured('chaos');
    const output = await runScript(
      'scripts/chaos.ts',
      [
        ...['--kills', String(CHAOS.kills), '--letters', String(CHAOS.letters)],
        ...['--database', options.databaseUrl, '--ports', CHAOS_PORTS],
      ],
      options,
    );
    return output
      .split('\n')
      .filter((line) => line.startsWith('chaos '))
      .flatMap(chaosRows);
  },
};

const SOAK_LINE =
  /^soak: (\d+) minutes, (\d+) actions .*?, (\d+) errors; p99 second minute (\d+) ms, last (\d+) ms .*; memory second minute (\d+) MB, last (\d+) MB/;

/** The rows of scripts/soak.ts's last line. */
export function soakRows(output: string): BenchRow[] {
  const line = output.split('\n').find((text) => text.startsWith('soak: ')) ?? '';
  const match = SOAK_LINE.exec(line);
  if (!match) throw new Error(`no soak line in: ${output.slice(-300)}`);
  const [, minutes, actions, errors, p99Second, p99Last, memorySecond, memoryLast] = match.map(
    Number,
  ) as number[];
  const label = `soak, ${minutes} minutes`;
  return [
    {
      name: `${label}: actions`,
      value: actions,
      unit: 'count',
      note: 'an upload is three requests',
    },
    { name: `${label}: errors`, value: errors, unit: 'count', target: '0', met: errors === 0 },
    {
      name: `${label}: p99 last ÷ second minute`,
      value: p99Last! / p99Second!,
      unit: 'ratio',
      target: `<= ${FLAT}`,
      met: p99Last! <= p99Second! * FLAT,
      note: `${p99Second} ms, then ${p99Last} ms`,
    },
    {
      name: `${label}: server memory last ÷ second minute`,
      value: memoryLast! / memorySecond!,
      unit: 'ratio',
      target: `<= ${FLAT}`,
      met: memoryLast! <= memorySecond! * FLAT,
      note: `${memorySecond} MB, then ${memoryLast} MB`,
    },
  ];
}

export const soakBench: BenchModule = {
  title: 'soak',
  async run(options) {
    if (!options.databaseUrl) return notMeasured('soak');
    const output = await runScript(
      'scripts/soak.ts',
      ['--minutes', String(SOAK_MINUTES), '--database', options.databaseUrl],
      options,
    );
    return soakRows(output);
  },
};
