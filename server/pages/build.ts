import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { distDir, projectRoot, SSR_DIR, SSR_ENTRY_FILE } from '../lib/paths';

/** What the web app is built from; the contract is bundled into it as into the server. */
const BUILD_INPUTS = [
  'src',
  'contract',
  'index.html',
  'vite.config.ts',
  'public',
  'package-lock.json',
];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (newest, entry) => Math.max(newest, newestMtime(path.join(target, entry))),
    stat.mtimeMs,
  );
}

/**
 * True when the build (dist/ of the checkout) is missing, lacks the server's render (a bare
 * `vite build` makes only the browser's half), or is older than any of its sources.
 */
export function spaBuildIsStale(root = projectRoot, dist = distDir): boolean {
  const builtAt = Math.min(
    newestMtime(path.join(dist, 'index.html')),
    newestMtime(path.join(dist, SSR_ENTRY_FILE)),
  );
  if (builtAt === 0) return true;
  return BUILD_INPUTS.some((input) => newestMtime(path.join(root, input)) > builtAt);
}

/**
 * A production build into outDir: the browser's app, then the server's render of it
 * (src/entry-server.tsx) into its `server/` folder, which is never served. Vite picks React's development build whenever
 * NODE_ENV is set to anything but production (e2e and tests start the server with
 * NODE_ENV=test), so NODE_ENV is production for the length of the build.
 */
export async function buildSpa(outDir: string): Promise<void> {
  const { build } = await import('vite');
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const common = {
      root: projectRoot,
      configFile: path.join(projectRoot, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn' as const,
    };
    await build({ ...common, build: { outDir, emptyOutDir: true } });
    await build({
      ...common,
      // React's production build whatever NODE_ENV the server runs with (e2e runs it with `test`).
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        ssr: 'src/entry-server.tsx',
        outDir: path.join(outDir, SSR_DIR),
        emptyOutDir: true,
        target: 'node20',
        sourcemap: false,
        manifest: false,
        rolldownOptions: { output: { entryFileNames: path.basename(SSR_ENTRY_FILE) } },
      },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  precompress(outDir, [path.join(outDir, SSR_DIR)]);
}

const COMPRESSIBLE = /\.(js|css|html|svg|json|ftl|txt)$/;

/**
 * Brotli and gzip copies of every text asset, made once at build time; the server sends the
 * one the browser accepts (`preCompressed` in server/pages/spa.ts) without compressing per
 * request. The server's own bundle (`skip`) is never sent.
 */
function precompress(dir: string, skip: readonly string[] = []): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (skip.includes(file)) continue;
    if (entry.isDirectory()) precompress(file, skip);
    else if (COMPRESSIBLE.test(entry.name)) {
      const content = readFileSync(file);
      writeFileSync(`${file}.br`, brotliCompressSync(content));
      writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    }
  }
}

/**
 * Builds the SPA with Vite when it is missing or stale. Vite and its plugins are
 * `dependencies`, so a production install (`--omit=dev`) can build at its first start.
 * The build is made beside dist/ and renamed into its place, so that processes building at once
 * (two servers starting, test runners side by side) never serve or read a half-written one.
 */
export async function ensureSpaBuild(log: (line: string) => void): Promise<void> {
  if (!spaBuildIsStale()) return;
  log('building the web app (dist/ is missing or older than its sources)...');
  // Beside dist/ at its depth: the sourcemaps name their sources by relative paths.
  const fresh = mkdtempSync(`${distDir}.next-`);
  await buildSpa(fresh);
  replaceDirectory(fresh, distDir);
}

/** Puts `fresh` where `target` is; when another process has just put its build there, keeps that one. */
export function replaceDirectory(fresh: string, target: string): void {
  const old = `${fresh}-replaced`;
  try {
    renameSync(target, old);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    renameSync(fresh, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    rmSync(fresh, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}
