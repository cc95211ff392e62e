import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { acceptedEncodings } from '../http/encodings';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
};

interface Asset {
  type: string;
  plain: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** Every hashed asset of the build (`assets/`) with the .br and .gz copies buildSpa() leaves. */
export function readAssets(root: string): Map<string, Asset> {
  const folder = path.join(root, 'assets');
  const assets = new Map<string, Asset>();
  if (!existsSync(folder)) return assets;
  for (const name of readdirSync(folder)) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const file = path.join(folder, name);
    const copy = (suffix: string) =>
      existsSync(`${file}${suffix}`) ? readFileSync(`${file}${suffix}`) : undefined;
    assets.set(`/assets/${name}`, {
      type,
      plain: readFileSync(file),
      br: copy('.br'),
      gzip: copy('.gz'),
    });
  }
  return assets;
}

/**
 * Answers the build's hashed assets from memory, before routing. A page opens with twenty to
 * thirty of them at once, and each read through the static file plugin (a stat, an open, a
 * stream per file) kept the one thread busy for a few milliseconds: on a loaded machine the
 * last of the six requests a browser sends at once waited 50-200 ms for its first byte
 * (docs/benchmarks.md). The names are content hashes, so the files never change while the
 * process runs; source maps and anything else stay with the static file plugin.
 */
export function serveAssetsFromMemory(app: FastifyInstance, root: string): void {
  const assets = readAssets(root);
  if (assets.size === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const asset = assets.get(request.url);
    if (!asset) return;
    const accepted = acceptedEncodings(request.headers['accept-encoding']);
    const [body, encoding] =
      asset.br && accepted.has('br')
        ? [asset.br, 'br']
        : asset.gzip && accepted.has('gzip')
          ? [asset.gzip, 'gzip']
          : [asset.plain, undefined];
    reply
      .header('content-type', asset.type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('vary', 'accept-encoding');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  });
}
