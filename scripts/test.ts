/**
 * `npm test`: typecheck, lint, unit and model-based tests, the real `npm start` process, the
 * API suite on PGlite (and on PostgreSQL when TEST_DATABASE_URL is set) and the Playwright
 * e2e suite. Every step runs; the last line is the total over all runners:
 * `N passed, N failed, N skipped`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

const reportDir = path.resolve('test-results/reports');
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

const only = process.argv.slice(2);
const totals: Totals = { passed: 0, failed: 0, skipped: 0 };
const summary: string[] = [];

function run(command: string, args: string[], env: Record<string, string> = {}): boolean {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function add(step: string, counts: Totals, ok: boolean, started: number): void {
  // A runner that failed without reporting a failed test (a crash, a compile error) still counts as one failure.
  const failed = counts.failed === 0 && !ok ? 1 : counts.failed;
  totals.passed += counts.passed;
  totals.failed += failed;
  totals.skipped += counts.skipped;
  const seconds = Math.round((performance.now() - started) / 1000);
  summary.push(
    `${step.padEnd(22)} ${counts.passed} passed, ${failed} failed, ${counts.skipped} skipped  (${seconds} s)`,
  );
}

function check(step: string, command: string, args: string[]): void {
  if (only.length > 0 && !only.includes(step)) return;
  console.info(`\n=== ${step}`);
  const started = performance.now();
  const ok = run(command, args);
  add(step, { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 }, ok, started);
}

function vitest(step: string, projects: string[], env: Record<string, string> = {}): void {
  if (only.length > 0 && !only.includes(step)) return;
  console.info(`\n=== ${step}`);
  const started = performance.now();
  const report = path.join(reportDir, `${step}.json`);
  const ok = run(
    'npx',
    [
      'vitest',
      'run',
      ...projects.flatMap((p) => ['--project', p]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    env,
  );
  add(step, readVitest(report), ok, started);
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

function playwright(step: string): void {
  if (only.length > 0 && !only.includes(step)) return;
  console.info(`\n=== ${step}`);
  const started = performance.now();
  const report = path.join(reportDir, `${step}.json`);
  const ok = run('npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: report });
  let counts: Totals = { passed: 0, failed: 0, skipped: 0 };
  try {
    const stats = (JSON.parse(readFileSync(report, 'utf8')) as { stats: Record<string, number> })
      .stats;
    counts = {
      passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
      failed: stats.unexpected ?? 0,
      skipped: stats.skipped ?? 0,
    };
  } catch {
    // No report: the runner itself failed, counted by add().
  }
  add(step, counts, ok, started);
}

check('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
check('lint', 'npx', ['eslint', '.']);
check('format', 'npx', ['prettier', '--check', '.']);
vitest('unit', ['unit', 'model']);
vitest('process', ['process']);
vitest('api-pglite', ['api'], { API_TEST_DATABASE: 'pglite' });
if (process.env.TEST_DATABASE_URL) {
  vitest('api-postgres', ['api'], { API_TEST_DATABASE: 'postgres' });
} else {
  summary.push('api-postgres           not run (TEST_DATABASE_URL is not set)');
}
playwright('e2e');

console.info('\n=== summary');
for (const line of summary) console.info(line);
console.info(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
