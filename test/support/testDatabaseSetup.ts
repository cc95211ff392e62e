import type { TestProject } from 'vitest/node';
import { createTestDatabaseTemplate } from './testDatabaseTemplate';

/** Global setup of the API suite: one migrated template for all its test databases. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { template, remove } = await createTestDatabaseTemplate();
  project.provide('testDatabaseTemplate', template);
  return remove;
}
