import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist.next-*',
      'build',
      'data',
      'node_modules',
      'test-results',
      'playwright-report',
      'bench-results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    // Rules that need the types: a promise nobody awaits or catches loses its error.
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // The direction of dependencies (docs/architecture.md "Parts and directions"): a wrong
    // import fails the lint. Tests, scripts, bench and e2e may import anything.
    files: ['server/**/*.ts', 'contract/**/*.ts', 'src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      'boundaries/include': ['server/**', 'contract/**', 'src/**'],
      // The first pattern that matches a file gives its part.
      'boundaries/elements': [
        { type: 'domain', pattern: 'server/domain' },
        { type: 'http', pattern: 'server/http' },
        { type: 'routes', pattern: 'server/routes' },
        { type: 'pages', pattern: 'server/pages' },
        { type: 'db', pattern: 'server/db' },
        { type: 'lib', pattern: 'server/lib' },
        { type: 'server', pattern: 'server' },
        { type: 'contract', pattern: 'contract' },
        { type: 'machines', pattern: 'src/machines' },
        { type: 'services', pattern: 'src/services' },
        { type: 'screens', pattern: 'src/screens' },
        { type: 'components', pattern: 'src/components' },
        { type: 'app', pattern: 'src' },
      ],
      'boundaries/files': [{ category: 'server-render', pattern: 'src/entry-server.tsx' }],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              // Rules know nothing of HTTP: they throw DomainError, the error handler maps it.
              from: { element: { type: 'domain' } },
              disallow: { to: { element: { types: { anyOf: ['http', 'routes', 'pages'] } } } },
            },
            {
              // Routes reach the database only through the domain.
              from: { element: { types: { anyOf: ['routes', 'pages'] } } },
              disallow: { to: { element: { type: 'db' } } },
            },
            {
              from: { element: { type: 'db' } },
              disallow: {
                to: { element: { types: { anyOf: ['domain', 'http', 'routes', 'pages'] } } },
              },
            },
            {
              // What every part may use (the clock, the texts, paths) stands on nothing of the server.
              from: { element: { type: 'lib' } },
              disallow: {
                to: {
                  element: {
                    types: { anyOf: ['domain', 'http', 'routes', 'pages', 'db', 'server'] },
                  },
                },
              },
            },
            {
              // The server reads the browser's tree only through the contract and the render.
              from: {
                element: {
                  types: { anyOf: ['domain', 'http', 'routes', 'pages', 'db', 'lib', 'server'] },
                },
              },
              disallow: {
                to: {
                  element: {
                    types: { anyOf: ['machines', 'services', 'screens', 'components', 'app'] },
                  },
                },
              },
            },
            {
              // ... but for the server's render of the app (src/entry-server.tsx).
              from: { element: { types: { anyOf: ['pages', 'server'] } } },
              allow: { to: { file: { categories: 'server-render' } } },
            },
            {
              // The contract stands alone: both sides import it, it imports neither.
              from: { element: { type: 'contract' } },
              disallow: {
                to: {
                  element: {
                    types: {
                      anyOf: [
                        'domain',
                        'http',
                        'routes',
                        'pages',
                        'db',
                        'lib',
                        'server',
                        'machines',
                        'services',
                        'screens',
                        'components',
                        'app',
                      ],
                    },
                  },
                },
              },
            },
            {
              // Services talk to the server and keep state; they draw nothing.
              from: { element: { type: 'services' } },
              disallow: { to: { element: { types: { anyOf: ['screens', 'components'] } } } },
            },
            {
              // Components are the screens' parts: a part never reaches up into a screen.
              from: { element: { type: 'components' } },
              disallow: { to: { element: { type: 'screens' } } },
            },
            {
              // Machines are pure: effects come in through .provide().
              from: { element: { type: 'machines' } },
              disallow: {
                to: { element: { types: { anyOf: ['services', 'screens', 'components'] } } },
              },
            },
          ],
        },
      ],
    },
  },
);
