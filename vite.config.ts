import { readFileSync } from 'node:fs';
import path from 'node:path';
import { transformAsync } from '@babel/core';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;

/**
 * styled-components' own Babel plugin over the app's modules that use it: each styled
 * component gets a componentId from its file and position, so the server's render and the
 * browser's give the same class names and the browser hydrates the server's markup.
 */
function styledComponentIds(): Plugin {
  return {
    name: 'shinobu-styled-component-ids',
    enforce: 'pre',
    async transform(code, id) {
      if (!/[\\/]src[\\/].*\.tsx?$/.test(id) || !code.includes('styled-components')) return;
      const result = await transformAsync(code, {
        filename: id,
        babelrc: false,
        configFile: false,
        sourceMaps: true,
        parserOpts: { plugins: ['typescript', 'jsx'] },
        plugins: [['babel-plugin-styled-components', { ssr: true, displayName: false }]],
      });
      return result?.code ? { code: result.code, map: result.map } : undefined;
    },
  };
}

/**
 * The translations go into the browser's build (`dist/i18n/ja/translation.ftl`), where the
 * server reads them: a built server reads no file of `src/`. The dev server serves the
 * source itself, so that an edit shows on reload.
 */
function translationsInBuild(): Plugin {
  let serverBuild = false;
  return {
    name: 'shinobu-translations-in-build',
    configureServer(server) {
      server.middlewares.use('/i18n/ja/translation.ftl', (_request, response) => {
        response.setHeader('content-type', 'text/plain; charset=utf-8');
        response.setHeader('cache-control', 'no-cache');
        response.end(readFileSync(path.resolve('src/i18n/ja/translation.ftl'), 'utf8'));
      });
    },
    configResolved(config) {
      serverBuild = Boolean(config.build.ssr);
    },
    generateBundle() {
      if (serverBuild) return;
      this.emitFile({
        type: 'asset',
        fileName: 'i18n/ja/translation.ftl',
        source: readFileSync(path.resolve('src/i18n/ja/translation.ftl'), 'utf8'),
      });
    },
  };
}

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [styledComponentIds(), react(), translationsInBuild()],
  resolve: {
    // react-router 7's package exports name its development build for every condition: a
    // production build takes the production one.
    alias:
      command === 'build'
        ? [
            {
              find: /^react-router$/,
              replacement: path.resolve('node_modules/react-router/dist/production/index.mjs'),
            },
          ]
        : [],
  },
  // The server's bundle carries its libraries: nothing is left to Node's resolution
  // (styled-components' CommonJS build does not give ESM a default export).
  ssr: { noExternal: true },
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    // The server names each route's modules in its page from it (server/pages/routeModules.ts).
    manifest: true,
    // Over HTTP/1.1 a phone fetches six files at a time, and each round costs a trip on a slow
    // link: the libraries every page loads come in one file, TanStack Query's modules in
    // another, and the small shared UI pieces and frame reads in a third, instead of one small
    // file per shared module (decision 447).
    rolldownOptions: isSsrBuild
      ? {}
      : {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: 'vendor',
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router|styled-components|@fluent|xstate)[\\/]/,
                  priority: 2,
                },
                { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 2 },
                {
                  name: 'ui',
                  test: /[\\/]src[\\/](components[\\/]ui|lib|services[\\/]frame)[\\/]/,
                  minShareCount: 2,
                  priority: 1,
                },
              ],
            },
          },
        },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: Object.fromEntries(
      ['/v1', '/api', '/files', '/healthz'].map((prefix) => [prefix, { target: apiTarget }]),
    ),
  },
}));
