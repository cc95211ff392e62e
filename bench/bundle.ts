import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildSpa } from '../server/pages/build';
import { routeModuleLinks } from '../server/pages/routeModules';
import type { BenchModule } from './types';

const ENTRY_JS_LIMIT_BYTES = 150 * 1024;
const VISITOR_JS_LIMIT_BYTES = 180 * 1024;

/** The assets the browser fetches before the entry route can run: scripts, preloads, styles. */
export function entryAssets(indexHtml: string): { js: string[]; css: string[] } {
  const tags = indexHtml.match(/<(script|link)\b[^>]*>/g) ?? [];
  const attribute = (tag: string, name: string) =>
    new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const js: string[] = [];
  const css: string[] = [];
  for (const tag of tags) {
    const rel = attribute(tag, 'rel');
    const source = tag.startsWith('<script') ? attribute(tag, 'src') : attribute(tag, 'href');
    if (!source?.startsWith('/assets/')) continue;
    if (tag.startsWith('<script') || rel === 'modulepreload') js.push(source);
    else if (rel === 'stylesheet') css.push(source);
  }
  return { js, css };
}

const gzipBytes = (root: string, files: string[]) =>
  files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(root, file))).length, 0);

export const bundleBench: BenchModule = {
  title: 'bundle',
  async run({ log }) {
    // A fresh production build of the current sources, apart from dist/ (which may be in use).
    const outDir = mkdtempSync(path.join(tmpdir(), 'shinobu-bench-dist-'));
    log('building the web app...');
    await buildSpa(outDir);
    const { js, css } = entryAssets(readFileSync(path.join(outDir, 'index.html'), 'utf8'));
    const jsBytes = gzipBytes(outDir, js);
    const cssBytes = gzipBytes(outDir, css);
    // A visitor's public memorial page: the entry and what the server names for its screen.
    const memorialLinks = entryAssets(routeModuleLinks(outDir)('/memory/any-page')).js;
    const visitorJs = [...new Set([...js, ...memorialLinks])];
    const visitorJsBytes = gzipBytes(outDir, visitorJs);
    rmSync(outDir, { recursive: true, force: true });
    return [
      {
        name: 'entry route JS (gzip)',
        value: jsBytes,
        unit: 'bytes',
        target: '<= 150 KB',
        met: jsBytes <= ENTRY_JS_LIMIT_BYTES,
        note: `${js.length} file(s)`,
      },
      {
        name: "a visitor's JS for /memory/{id} (gzip)",
        value: visitorJsBytes,
        unit: 'bytes',
        target: '<= 180 KB',
        met: visitorJsBytes <= VISITOR_JS_LIMIT_BYTES,
        note: `${visitorJs.length} file(s): the entry and the page's modulepreloads`,
      },
      {
        // Each is a request before the page can run; on an old phone's link they add up.
        name: "a visitor's JS files for /memory/{id}",
        value: visitorJs.length,
        unit: 'count',
        note: 'the entry, its static imports and the modulepreloads the server names for the page',
      },
      {
        name: 'entry route CSS (gzip)',
        value: cssBytes,
        unit: 'bytes',
        note: css.length === 0 ? 'styles are in JS (styled-components)' : `${css.length} file(s)`,
      },
    ];
  },
};
