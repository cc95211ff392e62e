import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: server/lib/ sits two levels below it. */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const distDir = path.join(projectRoot, 'dist');
/** The server's render of the app (src/entry-server.tsx), built beside it; never served. */
export const SSR_DIR = 'server';
export const SSR_ENTRY_FILE = `${SSR_DIR}/entry-server.mjs`;
