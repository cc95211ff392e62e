import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { distDir, projectRoot } from './paths';

const BUILD_INPUTS = ['src', 'index.html', 'vite.config.ts', 'public', 'package-lock.json'];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (newest, entry) => Math.max(newest, newestMtime(path.join(target, entry))),
    stat.mtimeMs,
  );
}

/** True when dist/ is missing or older than any of its sources. */
export function spaBuildIsStale(): boolean {
  const builtAt = newestMtime(path.join(distDir, 'index.html'));
  if (builtAt === 0) return true;
  return BUILD_INPUTS.some((input) => newestMtime(path.join(projectRoot, input)) > builtAt);
}

/** Builds the SPA with Vite when it is missing or stale (vite is only needed when it is). */
export async function ensureSpaBuild(log: (line: string) => void): Promise<void> {
  if (!spaBuildIsStale()) return;
  log('building the web app (dist/ is missing or older than its sources)...');
  const { build } = await import('vite');
  await build({
    root: projectRoot,
    configFile: path.join(projectRoot, 'vite.config.ts'),
    logLevel: 'warn',
  });
}
