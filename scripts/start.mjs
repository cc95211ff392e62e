// @ts-check
/**
 * `npm start`: bundles the server (server/main.ts and every project module it imports) into
 * one ES module with esbuild, then runs it in this process. Node then loads one file instead
 * of some 220 TypeScript modules through tsx's loader, which halves the CPU of a start and
 * serves a restart (after a crash or a deploy) about 2 s sooner. Packages stay external: Node
 * loads them from node_modules as it would anyway. Plain JavaScript, as it runs before any
 * TypeScript loader.
 */
import { build } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = path.join(root, 'build', 'server.mjs');

const { outputFiles } = await build({
  entryPoints: [path.join(root, 'server', 'main.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  outfile,
  write: false,
  logLevel: 'warning',
});
mkdirSync(path.dirname(outfile), { recursive: true });
// Several servers may start at once (tests, a second instance on PostgreSQL): each writes
// its own copy and renames it into place, so none ever imports a half-written file.
for (const file of outputFiles) {
  const partial = `${file.path}.${process.pid}`;
  writeFileSync(partial, file.contents);
  renameSync(partial, file.path);
}
// Stack traces in the log name the TypeScript source, not the bundle.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(outfile).href);
