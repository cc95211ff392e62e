import type { TestProject } from 'vitest/node';
import {
  createPostgresTemplate,
  createTestDatabaseTemplate,
  testDatabaseKind,
} from './testDatabaseTemplate';

/** Global setup of the API suite: one migrated template for all the run's test databases. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (testDatabaseKind() === 'postgres' && !serverUrl)
    throw new Error('API_TEST_DATABASE=postgres needs TEST_DATABASE_URL');
  const { template, remove } =
    testDatabaseKind() === 'postgres'
      ? await createPostgresTemplate(serverUrl!)
      : await createTestDatabaseTemplate();
  project.provide('testDatabaseTemplate', template);
  return remove;
}
