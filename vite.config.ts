import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { ROUTE_PRELOADS_FILE } from './server/paths';
import { screenRoutes } from './src/screens/routeTable';

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

export default defineConfig({
  plugins: [react(), routePreloads()],
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
