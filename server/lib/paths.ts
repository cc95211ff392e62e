import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root: the nearest folder above this module with a package.json. This module
 * runs from server/lib/ under tsx and from build/server.mjs under `npm start`.
 */
export const projectRoot = nearestPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

function nearestPackageRoot(dir: string): string {
  if (existsSync(path.join(dir, 'package.json'))) return dir;
  const parent = path.dirname(dir);
  if (parent === dir) throw new Error('no package.json above the server');
  return nearestPackageRoot(parent);
}
export const distDir = path.join(projectRoot, 'dist');
/** The server's render of the app (src/entry-server.tsx), built beside it; never served. */
export const SSR_DIR = 'server';
export const SSR_ENTRY_FILE = `${SSR_DIR}/entry-server.mjs`;
