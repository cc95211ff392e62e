// @vitest-environment node
/**
 * The entry route stays under 150 KB gzip (`npm run bench -- --only bundle`) only
 * while the first paint loads no more than it needs. axios and axios-auth-refresh (about
 * 21 KB gzip) come with the first `/v1` call (docs/client-auth.md): one static import of the
 * HTTP client from the shell, the session or a modal mounted in the shell would put them
 * back. This test walks the static imports from src/main.tsx, as the bundler does (type-only
 * imports and `import()` excluded), and names the chain that reaches a deferred module.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { memberFrameModules } from '../../src/components/shell/memberFrameModules';

const ENTRY = path.resolve('src/main.tsx');

/**
 * What the first paint does not need: loaded by `import()` where it is used. TanStack Query
 * (about 11 KB gzip) comes with the screens and the member-only parts of the frame, each
 * inside `QueryLayer` (src/services/queries/queryClient.tsx).
 */
const DEFERRED_PACKAGES = [
  'axios',
  'axios-auth-refresh',
  '@statelyai/inspect',
  '@tanstack/react-query',
  '@tanstack/query-core',
  // The hooks of the statecharts that run in member flows and the menu's navigation.
  '@xstate/react',
];
/**
 * The session's statecharts and calls (sign-in included) come after the first render
 * (src/services/session/sessionRuntime.ts); the inspector only in development.
 */
const DEFERRED_MODULES = [
  path.resolve('src/services/http/index.ts'),
  path.resolve('src/services/queries/queryClient.tsx'),
  path.resolve('src/machines/authSession.ts'),
  path.resolve('src/machines/tokenRefresh.ts'),
  path.resolve('src/services/api/session.ts'),
  path.resolve('src/services/clientState/inspector.ts'),
];

function resolveRelative(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
  const found = candidates.find((file) => existsSync(file) && /\.tsx?$/.test(file));
  if (!found) throw new Error(`cannot resolve ${specifier} from ${from}`);
  return found;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The module specifiers a file imports for their values (what stays after type erasure). */
function staticValueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      !statement.isTypeOnly &&
      !(
        statement.exportClause &&
        ts.isNamedExports(statement.exportClause) &&
        statement.exportClause.elements.every((element) => element.isTypeOnly)
      )
    ) {
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers;
}

/** Every deferred module or package the entry reaches, each with the chain that reaches it. */
function deferredReachedFrom(entry: string): string[] {
  const chains = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  const reached: string[] = [];
  const relative = (file: string) => path.relative(process.cwd(), file);
  while (queue.length > 0) {
    const file = queue.shift()!;
    const chain = chains.get(file)!;
    for (const specifier of staticValueImports(file)) {
      if (!specifier.startsWith('.')) {
        if (DEFERRED_PACKAGES.includes(packageName(specifier))) {
          reached.push([...chain.map(relative), specifier].join(' -> '));
        }
        continue;
      }
      if (!/^\.\.?\//.test(specifier) || /\.(svg|json|css)$/.test(specifier)) continue;
      const target = resolveRelative(file, specifier);
      if (DEFERRED_MODULES.includes(target)) {
        reached.push([...chain, target].map(relative).join(' -> '));
        continue;
      }
      if (chains.has(target)) continue;
      chains.set(target, [...chain, target]);
      queue.push(target);
    }
  }
  return reached;
}

describe('the entry route', () => {
  it('does not import the HTTP client (axios), TanStack Query or the dev inspector statically', () => {
    expect(deferredReachedFrom(ENTRY)).toEqual([]);
  });

  it('would notice a static import of the HTTP client', () => {
    // The walk itself: the account API module reaches axios through services/http.
    expect(deferredReachedFrom(path.resolve('src/services/api/auth.ts'))).toEqual([
      'src/services/api/auth.ts -> src/services/http/index.ts',
    ]);
  });

  it('would notice a static import of TanStack Query', () => {
    expect(deferredReachedFrom(path.resolve('src/components/shell/memberParts.tsx'))).toEqual([
      'src/components/shell/memberParts.tsx -> src/services/queries/queryClient.tsx',
      'src/components/shell/memberParts.tsx -> src/services/frame/useCertificated.ts -> @tanstack/react-query',
      'src/components/shell/memberParts.tsx -> src/services/frame/useUnreadCount.ts -> @tanstack/react-query',
      'src/components/shell/memberParts.tsx -> src/components/ui/Avatar.tsx -> src/services/frame/useImageUrl.ts -> @tanstack/react-query',
    ]);
  });
});

describe('the ending note and the member frame', () => {
  // Their page carries the note's first reads (server/pages/memberPage.ts), so their first
  // render makes no call: axios among its downloads only slowed it.
  const reachesHttpClient = (chain: string) =>
    / -> (axios|axios-auth-refresh|src\/services\/http\/index\.ts)$/.test(chain);

  it.each(['src/screens/endingnote/EndingNoteScreen.tsx', ...memberFrameModules])(
    '%s does not import the HTTP client statically',
    (file) => {
      expect(deferredReachedFrom(path.resolve(file)).filter(reachesHttpClient)).toEqual([]);
    },
  );
});
