import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureSpaBuild } from '../server/build';
import { distDir } from '../server/paths';
import type { BenchModule } from './types';

const ENTRY_JS_LIMIT_BYTES = 150 * 1024;

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

const gzipBytes = (files: string[]) =>
  files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(distDir, file))).length, 0);

export const bundleBench: BenchModule = {
  title: 'bundle',
  async run({ log }) {
    await ensureSpaBuild(log);
    const { js, css } = entryAssets(readFileSync(path.join(distDir, 'index.html'), 'utf8'));
    const jsBytes = gzipBytes(js);
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
        name: 'entry route CSS (gzip)',
        value: gzipBytes(css),
        unit: 'bytes',
        note: css.length === 0 ? 'styles are in JS (styled-components)' : `${css.length} file(s)`,
      },
    ];
  },
};
