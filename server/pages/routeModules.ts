import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { screenRoutes } from '../../contract/pages/routeTable';
import { escapeHtml } from '../domain/escapeHtml';
import { clientRouteOf } from './clientRoutes';

/** One chunk of Vite's build manifest (`build.manifest`), keyed by its source module. */
interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
}

/** Vite's manifest of the browser build, beside index.html; never served. */
export const BUILD_MANIFEST_FILE = '.vite/manifest.json';

/** What every screen loads beside its own module (src/screens/routes.tsx, `loadScreen`). */
const SCREEN_COMPANIONS = ['src/services/queries/queryClient.tsx'];

/**
 * A source module's key in the manifest: the module itself, or, when the bundler folded a
 * module that is imported both statically and dynamically into a shared chunk, that chunk's
 * key (`_<name>-<hash>.js`, named after the module).
 */
function manifestKeyOf(manifest: Record<string, ManifestChunk>, module: string): string {
  if (manifest[module]) return module;
  const name = path.basename(module).replace(/\.[^.]+$/, '');
  return (
    Object.keys(manifest).find((key) => key.startsWith('_') && manifest[key]!.name === name) ??
    module
  );
}

/**
 * The manifest keys whose chunks a screen's page names: the screen's own module and its
 * companions. Each must be a key of the build's manifest, else its chunks are silently left
 * out (test/api/spaPages.test.ts checks them against a real build).
 */
export function screenModuleKeys(
  screen: string,
  manifest: Record<string, ManifestChunk>,
): string[] {
  return [`src/screens/${screen}.tsx`, ...SCREEN_COMPANIONS].map((module) =>
    manifestKeyOf(manifest, module),
  );
}

/**
 * For a page's path, the `<link rel="modulepreload">` tags of its screen's modules that the
 * entry does not already bring: without them the browser learns of the screen's code only
 * once the entry has run, a second trip on a slow link before the page can be used. Read from
 * the build's manifest once; empty without one (a test build, the dev server).
 */
export function routeModuleLinks(root: string): (pathname: string) => string {
  const file = path.join(root, BUILD_MANIFEST_FILE);
  if (!existsSync(file)) return () => '';
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  /** The chunks `keys` load statically, themselves included. */
  const reach = (keys: string[]): Set<string> => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      manifest[key].imports?.forEach(visit);
    };
    keys.forEach(visit);
    return seen;
  };
  const entry = reach(Object.keys(manifest).filter((key) => manifest[key]!.isEntry));
  const linksByScreen = new Map(
    screenRoutes.map(({ screen }) => {
      const chunks = reach(screenModuleKeys(screen, manifest));
      const links = [...chunks]
        .filter((key) => !entry.has(key))
        .map(
          (key) =>
            `<link rel="modulepreload" crossorigin href="/${escapeHtml(manifest[key]!.file)}">`,
        );
      return [screen, links.join('')];
    }),
  );
  return (pathname) => {
    const route = clientRouteOf(pathname);
    return route ? (linksByScreen.get(route.screen) ?? '') : '';
  };
}
