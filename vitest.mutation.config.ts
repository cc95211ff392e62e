import { defineConfig } from 'vitest/config';

/** The model-based tests alone: what the mutation run (stryker.config.mjs) kills mutants with. */
export default defineConfig({
  test: {
    name: 'model',
    environment: 'node',
    include: ['test/model/**/*.test.ts'],
  },
});
