import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import {
  LOGIN_SNAPSHOT_FILE,
  MEMBER_PRELOADS_FILE,
  ROUTE_PRELOADS_FILE,
  SNAPSHOT_RENDERER_DIR,
  SNAPSHOT_RENDERER_FILE,
} from './server/paths';
import { memberFrameModules } from './src/components/shell/memberFrameModules';
import { screenRoutes } from './src/screens/routeTable';
import type { createSnapshotRenderer } from './src/snapshot/prerender';

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
 *
 * Writes `member-preloads.json` beside it: the chunks of the frame's member-only parts
 * (`memberFrameModules.ts`) and what they import, less the entry's. The server names them
 * only in a page served to a valid session cookie (server/routes/memberPage.ts).
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
      // The chunk holding a module: its own, or the group's that took it in (codeSplitting).
      const chunkOf = (source: string) => {
        const module = path.join(root, source);
        const chunk = chunks.find((candidate) => candidate.moduleIds.includes(module));
        if (!chunk) throw new Error(`no chunk holds ${source}`);
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
      const memberFiles = new Set<string>();
      for (const source of memberFrameModules) closure(chunkOf(source), memberFiles);
      this.emitFile({
        type: 'asset',
        fileName: MEMBER_PRELOADS_FILE,
        source: `${JSON.stringify(
          [...memberFiles].filter((file) => !entryFiles.has(file)).map((file) => `/${file}`),
          null,
          2,
        )}\n`,
      });
    },
  };
}

/**
 * Builds `src/snapshot/prerender.tsx` for Node into the build's `ssr/` folder (its libraries
 * bundled in, so nothing is left to Node's resolution), and writes `login-snapshot.json` with
 * it: /login as a signed-out visitor sees it once everything has loaded, `{ html, css }`,
 * rendered with the app's own components and the translations of
 * `src/i18n/ja/translation.ftl`. The server puts the snapshot into the page of a visitor's
 * /login (server/routes/spa.ts), and loads the same bundle at start to draw a public memorial
 * page for a visitor per request (server/routes/pageRenderer.ts); the app replaces either
 * once it has drawn the screen. The folder is never served (spa.ts).
 */
function snapshotRenderer(): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  let mode = 'production';
  return {
    name: 'shinobu-snapshot',
    apply: (config, env) => env.command === 'build' && !config.build?.ssr,
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      mode = config.mode;
    },
    async closeBundle() {
      await build({
        configFile: false,
        root,
        mode,
        logLevel: 'warn',
        plugins: [react()],
        // One self-contained bundle: no library is left to Node's resolution (styled-components'
        // CommonJS build, for one, does not give ESM a default export).
        ssr: { noExternal: true },
        // React's production build whatever NODE_ENV the server runs with (e2e runs it with
        // `test`): the development one renders several times slower.
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        build: {
          ssr: 'src/snapshot/prerender.tsx',
          outDir: path.join(outDir, SNAPSHOT_RENDERER_DIR),
          emptyOutDir: true,
          target: 'node20',
          rolldownOptions: {
            output: {
              entryFileNames: path.basename(SNAPSHOT_RENDERER_FILE),
              chunkFileNames: '[name]-[hash].mjs',
            },
          },
        },
      });
      const prerender = (await import(
        pathToFileURL(path.join(outDir, SNAPSHOT_RENDERER_FILE)).href
      )) as { createSnapshotRenderer: typeof createSnapshotRenderer };
      const translations = readFileSync(path.join(root, 'src/i18n/ja/translation.ftl'), 'utf8');
      const render = await prerender.createSnapshotRenderer(translations);
      writeFileSync(
        path.join(outDir, LOGIN_SNAPSHOT_FILE),
        `${JSON.stringify(await render('/login'))}\n`,
      );
    },
  };
}

/**
 * The chunks whose code runs in a member's first render (the frame's libraries, the app, TanStack
 * Query, the form kit, the member frame's parts and the ending note's screen) and right after it
 * (the HTTP client of the frame's first calls, the menu's statecharts). Chrome compiles a
 * script marked `//# allFunctionsCalledOnLoad` whole, on a background thread, as it downloads;
 * unmarked, each function is compiled on the main thread when it is first called, which made
 * the first render's tasks long (docs/endingnote.md, "The note drawn by the server").
 */
const COMPILED_WHILE_DOWNLOADING = [
  'framework',
  'app',
  'query',
  'kit',
  'member',
  'EndingNoteScreen',
  'endingnote',
  'http',
  'navigationMachines',
];

export default defineConfig(({ command }) => ({
  plugins: [react(), routePreloads(), snapshotRenderer()],
  resolve: {
    // react-router 7's package exports name its development build for every condition (its
    // issues #12532, #14102): a production build takes the production one, without the dev
    // warnings and checks the framework chunk otherwise runs on every navigation.
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
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Chrome's explicit compile hint: compile these whole while they download.
        postBanner: (chunk) =>
          COMPILED_WHILE_DOWNLOADING.includes(chunk.name) ? '//# allFunctionsCalledOnLoad' : '',
        // Left to itself the bundler cuts the libraries the entry shares with lazy screens into
        // a dozen small chunks, each one more request before the first paint; grouped, they
        // are one request for the frame's libraries and one for TanStack Query (which comes
        // with the screens, docs/benchmarks.md).
        codeSplitting: {
          groups: [
            { name: 'framework', test: FRAMEWORK_PACKAGES },
            { name: 'app', test: /[\\/]src[\\/]/, tags: ['$initial'] },
            {
              // The wire's casing and the page's answers come with the screens too: a screen
              // reads the answers its page carries with it without the HTTP client's axios, and
              // without one more small file among a page's first downloads.
              name: 'query',
              test: /node_modules[\\/]@tanstack[\\/]|src[\\/]services[\\/](queryClient\.tsx|pageAnswers\.ts|http[\\/]casing\.ts)$/,
            },
            {
              // axios and the client, loaded by the first call (services/http/lazy.ts).
              name: 'http',
              test: /node_modules[\\/]axios(-auth-refresh)?[\\/]|src[\\/]services[\\/]http[\\/](client|index)\.ts$/,
            },
            {
              name: 'kit',
              test: /src[\\/]components[\\/](form[\\/]|ui[\\/](Modal|Notice|elapsedTime|calendarDate)\.)/,
            },
            {
              name: 'member',
              test: /src[\\/](components[\\/](shell[\\/]memberParts|deathDetection|appStore)|services[\\/](bridge[\\/]deviceToken|persistence[\\/]deathConfirmationStorage))/,
            },
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
}));
