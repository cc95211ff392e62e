import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: server/ sits directly below it. */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const distDir = path.join(projectRoot, 'dist');
/** Written into the build by vite.config.ts, read by server/routes/spa.ts: route → screen JS. */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';
/** Written beside it: the chunks the app frame loads for a signed-in member (server/routes/memberPage.ts). */
export const MEMBER_PRELOADS_FILE = 'member-preloads.json';
/**
 * Written into the build by vite.config.ts, read by server/routes/spa.ts: the prerendered
 * first paint of /login for a visitor, `{ html, css }` (src/snapshot/prerender.tsx).
 */
export const LOGIN_SNAPSHOT_FILE = 'login-snapshot.json';
/**
 * Written into the build by vite.config.ts: the server bundle of src/snapshot/prerender.tsx,
 * which the build runs for /login and the server loads at start to draw a public memorial
 * page's first paint per request (server/routes/pageRenderer.ts). Never served.
 */
export const SNAPSHOT_RENDERER_DIR = 'ssr';
export const SNAPSHOT_RENDERER_FILE = `${SNAPSHOT_RENDERER_DIR}/prerender.mjs`;
