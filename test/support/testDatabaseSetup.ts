import type { TestProject } from 'vitest/node';
import { createTestDatabaseTemplate, testDatabaseKind } from './testDatabaseTemplate';

/** Global setup of the API suite: on PGlite, one migrated template for all its test databases. */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (testDatabaseKind() !== 'pglite') return;
  const { template, remove } = await createTestDatabaseTemplate();
  project.provide('testDatabaseTemplate', template);
  return remove;
}
