// @vitest-environment node
/**
 * The lint's direction rules (eslint.config.js, docs/architecture.md "Parts and directions")
 * refuse a wrong import: ESLint runs on one-line modules placed in each part, importing files
 * that exist.
 */
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The one-line modules are in no tsconfig, so the rules that need types are left out here.
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
      '@typescript-eslint/await-thenable': 'off',
    },
  },
});

/** The direction rule's messages for `code` linted as if it were the file `filePath`. */
async function directionProblems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport { imported };\n`, { filePath });
  return result!.messages
    .filter((message) => message.ruleId === 'boundaries/dependencies')
    .map((message) => message.message);
}

describe('the direction of dependencies', () => {
  // The first run loads the configuration, its plugins and the TypeScript parser.
  beforeAll(
    () => directionProblems('server/domain/example.ts', "import '../domain/errors';"),
    120_000,
  );

  it.each([
    [
      'a domain rule importing the HTTP layer',
      'server/domain/accounts/example.ts',
      "import { ApiError as imported } from '../../http/errors';",
    ],
    [
      'a route importing the database',
      'server/routes/social/example.ts',
      "import { users as imported } from '../../db/schema';",
    ],
    [
      'the database importing the domain',
      'server/db/example.ts',
      "import { DomainError as imported } from '../domain/errors';",
    ],
    [
      'the server importing a screen of the browser app',
      'server/pages/example.ts',
      "import { routes as imported } from '../../src/screens/routes';",
    ],
    [
      'the contract importing the browser app',
      'contract/rules/example.ts',
      "import { toCamelCase as imported } from '../../src/services/http/casing';",
    ],
    [
      'a helper every part uses importing the domain',
      'server/lib/example.ts',
      "import { DomainError as imported } from '../domain/errors';",
    ],
    [
      'a service importing a component',
      'src/services/session/example.ts',
      "import { showToast as imported } from '../../components/ui/toast';",
    ],
    [
      'a component importing a screen',
      'src/components/ui/example.ts',
      "import { routes as imported } from '../../screens/routes';",
    ],
    [
      'a machine importing a service',
      'src/machines/example.ts',
      "import { toCamelCase as imported } from '../services/http/casing';",
    ],
  ])('refuses %s', async (_what, filePath, code) => {
    expect(await directionProblems(filePath, code)).toHaveLength(1);
  });

  it.each([
    [
      'a domain rule importing the domain errors',
      'server/domain/accounts/example.ts',
      "import { DomainError as imported } from '../errors';",
    ],
    [
      'the server importing the contract',
      'server/routes/social/example.ts',
      "import { normalizeReading as imported } from '../../../contract/rules/nameReading';",
    ],
    [
      'the page server importing the server render',
      'server/pages/example.ts',
      "import type { ServerRender as imported } from '../../src/entry-server';",
    ],
  ])('lets %s through', async (_what, filePath, code) => {
    expect(await directionProblems(filePath, code)).toEqual([]);
  });
});
