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
        },
      },
      {
        test: {
          name: 'model',
          environment: 'node',
          include: ['test/model/**/*.test.ts'],
        },
      },
      {
        test: {
          // The real `npm start` process: start, refusals, graceful stop, restart.
          name: 'process',
          environment: 'node',
          include: ['test/process/**/*.test.ts'],
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { NODE_ENV: 'test' },
        },
      },
    ],
  },
});
