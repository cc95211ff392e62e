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

export default defineConfig(({ command }) => ({
  plugins: [styledComponentIds(), react()],
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
}));
