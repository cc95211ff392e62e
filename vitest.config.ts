import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['test/unit/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
          setupFiles: ['test/support/domSetup.ts'],
          // A worker imports React and the app once for all its files: a test renders into
          // the document afresh and restores what it stubs, so files share nothing else.
          isolate: false,
          // The step runs beside the browser and mutation steps on two cores, where a test of
          // half a second alone has taken over five; a bound, not a wait.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'model',
          environment: 'node',
          isolate: false,
          include: ['test/model/**/*.test.ts'],
        },
      },
      {
        test: {
          // The real `npm start` process: start, refusals, graceful stop, restart.
          name: 'process',
          environment: 'node',
          include: ['test/process/**/*.test.ts'],
          // A migrated embedded store that DATA_DIRs not testing a first start copy.
          globalSetup: ['test/support/migratedStoreSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api',
          environment: 'node',
          include: ['test/api/**/*.test.ts'],
          globalSetup: ['test/support/testDatabaseSetup.ts'],
          // A worker imports the server once for all its files (importing it per file was a
          // fifth of the step): every test still builds its own app on its own database.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { NODE_ENV: 'test' },
        },
      },
    ],
  },
});
