/**
 * `npm test`: typecheck, lint, unit and model-based tests, the mutation run over the
 * statecharts (Stryker, failing under 80 %), the real `npm start` process, the API suite on
 * PGlite (and on PostgreSQL when TEST_DATABASE_URL is set) and the Playwright e2e suite, in two lanes that run side by side: the process tests then e2e (real servers and
 * a browser, mostly waiting on them) beside everything else (mostly CPU); a lane that has run
 * its own steps takes the next one the other has not started. Each step writes its
 * output to test-results/reports/<step>.log; a failed step's last lines are printed. Every
 * step runs; the last line is the total over all runners: `N passed, N failed, N skipped`.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

interface Step {
  name: string;
  kind: 'check' | 'vitest' | 'playwright' | 'mutation';
  command: string[];
  env?: Record<string, string>;
}

const reportDir = path.resolve('test-results/reports');
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

const only = process.argv.slice(2);
const FAILED_TAIL_LINES = 60;

const check = (name: string, command: string[]): Step => ({ name, kind: 'check', command });

function vitest(
  name: string,
  projects: string[],
  env: Record<string, string> = {},
  options: string[] = [],
): Step {
  const json = path.join(reportDir, `${name}.json`);
  return {
    name,
    kind: 'vitest',
    command: [
      'npx',
      'vitest',
      'run',
      ...projects.flatMap((p) => ['--project', p]),
      ...options,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${json}`,
    ],
    env,
  };
}

const playwright = (name: string): Step => ({
  name,
  kind: 'playwright',
  command: ['npx', 'playwright', 'test'],
  env: { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reportDir, `${name}.json`) },
});

/**
 * Stryker's run over src/machines with the model tests; its break threshold (80 %, in
 * stryker.config.mjs) makes it exit with a failure under that score. It counts as one check,
 * and its line gives the score from the JSON report.
 */
const mutation: Step = {
  name: 'mutation',
  kind: 'mutation',
  command: ['npx', 'stryker', 'run', '--reporters', 'clear-text,progress-append-only,json,html'],
};
const mutationReport = path.resolve('test-results/mutation/mutation.json');

const cores = availableParallelism();

/**
 * Two lanes side by side, each about half the run. Lane A's steps mostly wait (on servers
 * starting and stopping, on a browser, on PostgreSQL), lane B's mostly compute.
 */
const lanes: Step[][] = [
  [
    // Its files run side by side: they start servers on ports of their own and mostly wait
    // on them (a database outage, a drain, a restart).
    vitest('process', ['process'], {}, ['--maxWorkers=2']),
    playwright('e2e'),
    // Two files at once: each worker's tests wait on the PostgreSQL server half the time.
    ...(process.env.TEST_DATABASE_URL
      ? [
          vitest('api-postgres', ['api'], { API_TEST_DATABASE: 'postgres' }, [
            `--maxWorkers=${cores}`,
          ]),
        ]
      : []),
  ],
  [
    // TypeScript 7's native compiler (typescript-eslint reads the program with TypeScript 5),
    // on one thread: the other steps keep both cores busy.
    check('typecheck', [
      process.execPath,
      'node_modules/typescript-7/bin/tsc',
      '-p',
      'tsconfig.json',
      '--noEmit',
      '--singleThreaded',
    ]),
    check('lint', ['npx', 'eslint', '.']),
    check('format', ['npx', 'prettier', '--check', '.']),
    // A worker per core: vitest's default leaves one core out (one worker on two cores).
    vitest('unit', ['unit', 'model'], {}, [`--maxWorkers=${cores}`]),
    mutation,
    // A worker per core: it is usually the last step, alone on the machine at the end (one
    // worker left the other core idle for its last four minutes).
    vitest('api-pglite', ['api'], { API_TEST_DATABASE: 'pglite' }, [`--maxWorkers=${cores}`]),
  ],
];

function run(step: Step, log: string): Promise<boolean> {
  const out = openSync(log, 'w');
  const [command, ...args] = step.command;
  const child = spawn(command!, args, {
    stdio: ['ignore', out, out],
    env: { ...process.env, ...step.env },
  });
  return new Promise((resolve) => {
    child.on('error', () => resolve(false));
    child.on('close', (code) => {
      closeSync(out);
      resolve(code === 0);
    });
  });
}

function readVitest(report: string): Totals {
  try {
    const json = JSON.parse(readFileSync(report, 'utf8')) as Record<string, number>;
    return {
      passed: json.numPassedTests ?? 0,
      failed: json.numFailedTests ?? 0,
      skipped: (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0),
    };
  } catch {
    return { passed: 0, failed: 0, skipped: 0 };
  }
}

function readPlaywright(report: string): Totals {
  try {
    const stats = (JSON.parse(readFileSync(report, 'utf8')) as { stats: Record<string, number> })
      .stats;
    return {
      passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
      failed: stats.unexpected ?? 0,
      skipped: stats.skipped ?? 0,
    };
  } catch {
    // No report: the runner itself failed, counted below.
    return { passed: 0, failed: 0, skipped: 0 };
  }
}

/** The mutation score as Stryker counts it: killed and timed out among the valid mutants. */
function readMutationScore(report: string): string | undefined {
  try {
    const json = JSON.parse(readFileSync(report, 'utf8')) as {
      files: Record<string, { mutants: { status: string }[] }>;
    };
    const statuses = Object.values(json.files).flatMap((file) => file.mutants.map((m) => m.status));
    const detected = statuses.filter((s) => s === 'Killed' || s === 'Timeout').length;
    const undetected = statuses.filter((s) => s === 'Survived' || s === 'NoCoverage').length;
    const valid = detected + undetected;
    if (valid === 0) return undefined;
    return `mutation score ${((100 * detected) / valid).toFixed(2)} % (${detected}/${valid})`;
  } catch {
    return undefined;
  }
}

interface Result {
  counts: Totals;
  seconds: number;
  note?: string;
}

const results = new Map<string, Result>();

async function runStep(step: Step): Promise<void> {
  const log = path.join(reportDir, `${step.name}.log`);
  const started = performance.now();
  console.info(`=== ${step.name} started (output: ${path.relative('.', log)})`);
  // A report left by an earlier run would give this one's score.
  if (step.kind === 'mutation') rmSync(mutationReport, { force: true });
  const ok = await run(step, log);
  const seconds = Math.round((performance.now() - started) / 1000);
  const json = path.join(reportDir, `${step.name}.json`);
  let counts: Totals =
    step.kind === 'vitest'
      ? readVitest(json)
      : step.kind === 'playwright'
        ? readPlaywright(json)
        : { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 };
  // A runner that failed without reporting a failed test (a crash, a compile error) still counts as one failure.
  if (counts.failed === 0 && !ok) counts = { ...counts, failed: 1 };
  const note = step.kind === 'mutation' ? readMutationScore(mutationReport) : undefined;
  results.set(step.name, { counts, seconds, note });
  console.info(
    `=== ${step.name} ${ok ? 'passed' : 'FAILED'} (${seconds} s${note ? `; ${note}` : ''})`,
  );
  if (!ok) {
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    console.info(`--- last ${FAILED_TAIL_LINES} lines of ${path.relative('.', log)}:`);
    console.info(lines.slice(-FAILED_TAIL_LINES).join('\n'));
    console.info('---');
  }
}

/** The steps each lane has yet to start, in order. */
const queues = lanes.map((steps) =>
  steps.filter((step) => only.length === 0 || only.includes(step.name)),
);

/**
 * A lane runs its own steps in order; once it has none left, it takes the next step another
 * lane has not started, so that no core waits while steps remain.
 */
async function runLane(own: Step[]): Promise<void> {
  for (;;) {
    const step = own.shift() ?? queues.find((queue) => queue.length > 0)?.shift();
    if (!step) return;
    await runStep(step);
  }
}

const started = performance.now();
await Promise.all(queues.map(runLane));

console.info('\n=== summary');
const totals: Totals = { passed: 0, failed: 0, skipped: 0 };
for (const { name } of lanes.flat()) {
  const result = results.get(name);
  if (!result) continue;
  const { counts, seconds, note } = result;
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  console.info(
    `${name.padEnd(22)} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped  (${seconds} s)${note ? `  ${note}` : ''}`,
  );
}
if (!process.env.TEST_DATABASE_URL)
  console.info(`${'api-postgres'.padEnd(22)} not run (TEST_DATABASE_URL is not set)`);
console.info(
  `${'all, side by side'.padEnd(22)} ${Math.round((performance.now() - started) / 1000)} s`,
);
console.info(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
