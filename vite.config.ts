import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { LOGIN_SNAPSHOT_FILE, ROUTE_PRELOADS_FILE } from './server/paths';
import { screenRoutes } from './src/screens/routeTable';
import type { renderSnapshot } from './src/snapshot/prerender';

/** The libraries every page runs before its first paint. */
const FRAMEWORK_PACKAGES =
  /node_modules[\\/](react|react-dom|scheduler|react-router|styled-components|stylis|@emotion|xstate|@xstate|@fluent|cached-iterable|use-sync-external-store)[\\/]/;

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;

/**
 * Writes `route-preloads.json`: for each route of `routeTable.ts`, its screen chunk, the query
 * client's, and the chunks those import statically, less those index.html preloads already. The server
 * names them as `modulepreload` in the page it serves, so the browser fetches the screen with
 * the entry instead of after the entry has run and the router has asked for it (one round
 * trip before the first paint of the route).
 */
function routePreloads(): Plugin {
  let root = process.cwd();
  return {
    name: 'shinobu-route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []));
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (fileName: string, into = new Set<string>()) => {
        if (into.has(fileName)) return into;
        into.add(fileName);
        for (const imported of byFile.get(fileName)?.imports ?? []) closure(imported, into);
        return into;
      };
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) throw new Error('the build has no entry chunk');
      const entryFiles = closure(entry.fileName);
      const chunkOf = (source: string) => {
        const module = path.join(root, source);
        const chunk = chunks.find((candidate) => candidate.facadeModuleId === module);
        if (!chunk) throw new Error(`no chunk for ${source}`);
        return chunk.fileName;
      };
      // The router loads every screen together with the query client (src/screens/router.tsx).
      const withEveryScreen = closure(chunkOf('src/services/queryClient.tsx'));
      const preloads: Record<string, string[]> = {};
      for (const { path: routePath, screen } of screenRoutes) {
        const files = closure(chunkOf(`src/screens/${screen}.tsx`), new Set(withEveryScreen));
        preloads[routePath] = [...files]
          .filter((file) => !entryFiles.has(file))
          .map((file) => `/${file}`);
      }
      this.emitFile({
        type: 'asset',
        fileName: ROUTE_PRELOADS_FILE,
        source: `${JSON.stringify(preloads, null, 2)}\n`,
      });
    },
  };
}

/**
 * Writes `login-snapshot.json`: /login as a signed-out visitor sees it once everything has
 * loaded, `{ html, css }`, rendered with the app's own components (src/snapshot/prerender.tsx)
 * and the translations of `src/i18n/ja/translation.ftl`. The prerender entry is built for Node
 * into a temporary folder, with its libraries, run once, and removed. The server puts the snapshot into the page of a visitor's /login
 * (server/routes/spa.ts); the app replaces it once it has drawn the screen.
 */
function loginSnapshot(): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  let mode = 'production';
  return {
    name: 'shinobu-login-snapshot',
    apply: (config, env) => env.command === 'build' && !config.build?.ssr,
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      mode = config.mode;
    },
    async closeBundle() {
      const serverDir = mkdtempSync(path.join(tmpdir(), 'shinobu-snapshot-'));
      try {
        await build({
          configFile: false,
          root,
          mode,
          logLevel: 'warn',
          plugins: [react()],
          // One self-contained file: no library is left to Node's resolution (styled-components'
          // CommonJS build, for one, does not give ESM a default export).
          ssr: { noExternal: true },
          build: {
            ssr: 'src/snapshot/prerender.tsx',
            outDir: serverDir,
            emptyOutDir: true,
            target: 'node20',
            rolldownOptions: { output: { entryFileNames: 'prerender.js' } },
          },
        });
        const prerender = (await import(
          pathToFileURL(path.join(serverDir, 'prerender.js')).href
        )) as { renderSnapshot: typeof renderSnapshot };
        const translations = readFileSync(path.join(root, 'src/i18n/ja/translation.ftl'), 'utf8');
        const snapshot = await prerender.renderSnapshot('/login', translations);
        writeFileSync(path.join(outDir, LOGIN_SNAPSHOT_FILE), `${JSON.stringify(snapshot)}\n`);
      } finally {
        rmSync(serverDir, { recursive: true, force: true });
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), routePreloads(), loginSnapshot()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Left to itself the bundler cuts the libraries the entry shares with lazy screens into
        // a dozen small chunks, each one more request before the first paint; grouped, they
        // are one request for the frame's libraries and one for TanStack Query (which comes
        // with the screens, docs/benchmarks.md).
        codeSplitting: {
          groups: [
            { name: 'framework', test: FRAMEWORK_PACKAGES },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: Object.fromEntries(
      ['/v1', '/api', '/files', '/i18n', '/healthz'].map((prefix) => [
        prefix,
        { target: apiTarget },
      ]),
    ),
  },
});
