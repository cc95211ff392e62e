import type { TestProject } from 'vitest/node';
import { createMigratedPgdata } from './migratedStore';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's migrated PGlite store (test/support/migratedStore.ts). */
    migratedPgdata: string;
  }
}

/** Global setup of the process tests: one migrated embedded store their DATA_DIRs copy. */
export default async function setup(project: TestProject): Promise<() => void> {
  const { pgdata, remove } = await createMigratedPgdata();
  project.provide('migratedPgdata', pgdata);
  return remove;
}
