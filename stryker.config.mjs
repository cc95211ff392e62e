// @ts-check
/**
 * Mutation testing of the statecharts (`npm run mutation`, and the step `mutation` of
 * `npm test`): Stryker changes src/machines one mutant at a time and the model-based tests
 * must fail for each; the run fails under 80 % (`thresholds.break`).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  mutate: ['src/machines/**/*.ts'],
  coverageAnalysis: 'perTest',
  checkers: [],
  concurrency: 2,
  // A mutant's run is a fresh worker thread that lives a fraction of a second: V8's optimising
  // compiler and parallel collector threads cost it more than they return (a fifth of the CPU).
  testRunnerNodeArgs: ['--no-opt', '--single-threaded-gc'],
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'test-results/mutation/mutation.json' },
  htmlReporter: { fileName: 'test-results/mutation/mutation.html' },
  tempDirName: 'test-results/.stryker-tmp',
  // The sandbox copies the project: never what other test steps write while it runs (npm test
  // runs the e2e suite beside it, writing into test-results/), nor builds and data.
  ignorePatterns: [
    '/test-results',
    '/dist',
    '/dist.next-*',
    '/build',
    '/data',
    '/playwright-report',
    '/bench-results',
  ],
  thresholds: { high: 90, low: 80, break: 80 },
  ignoreStatic: true,
};
