import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SSR_DIR, SSR_ENTRY_FILE } from '../../server/lib/paths';
import { replaceDirectory, spaBuildIsStale } from '../../server/pages/build';

const made: string[] = [];
afterEach(() => {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A checkout with one file in each of the app's sources and a build made after them. */
function checkout(): { root: string; dist: string; touch(file: string): void } {
  const root = mkdtempSync(path.join(tmpdir(), 'shinobu-build-stale-'));
  made.push(root);
  const write = (file: string, at: Date) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), '');
    utimesSync(path.join(root, file), at, at);
  };
  const sourcesAt = new Date('2026-01-01T00:00:00Z');
  for (const file of ['src/main.tsx', 'contract/endpoints.ts', 'index.html', 'vite.config.ts'])
    write(file, sourcesAt);
  const builtAt = new Date('2026-01-02T00:00:00Z');
  for (const file of ['dist/index.html', `dist/${SSR_ENTRY_FILE}`]) write(file, builtAt);
  for (const dir of ['src', 'contract', 'dist', `dist/${SSR_DIR}`, ''])
    utimesSync(path.join(root, dir), sourcesAt, sourcesAt);
  return {
    root,
    dist: path.join(root, 'dist'),
    touch: (file) => write(file, new Date('2026-01-03T00:00:00Z')),
  };
}

describe('whether `npm start` and the e2e suite build the web app again', () => {
  it('keeps a build newer than every source', () => {
    const { root, dist } = checkout();
    expect(spaBuildIsStale(root, dist)).toBe(false);
  });

  it.each(['src/main.tsx', 'contract/endpoints.ts', 'index.html'])(
    'builds again after %s changed',
    (file) => {
      const { root, dist, touch } = checkout();
      touch(file);
      expect(spaBuildIsStale(root, dist)).toBe(true);
    },
  );

  it("builds again when the server's render is missing", () => {
    const { root, dist } = checkout();
    rmSync(path.join(dist, SSR_ENTRY_FILE));
    expect(spaBuildIsStale(root, dist)).toBe(true);
  });
});

describe('a new build taking the place of dist/', () => {
  function folderWith(root: string, name: string, file: string): string {
    const dir = path.join(root, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, file), name);
    return dir;
  }

  it('replaces the old build whole and leaves nothing beside it', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'shinobu-build-replace-'));
    made.push(root);
    const dist = folderWith(root, 'dist', 'old.js');
    replaceDirectory(folderWith(root, 'fresh', 'new.js'), dist);
    expect(readdirSync(dist)).toEqual(['new.js']);
    expect(readdirSync(root)).toEqual(['dist']);
  });

  it('puts the first build in place when there was none', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'shinobu-build-replace-'));
    made.push(root);
    const dist = path.join(root, 'dist');
    replaceDirectory(folderWith(root, 'fresh', 'new.js'), dist);
    expect(readFileSync(path.join(dist, 'new.js'), 'utf8')).toBe('fresh');
    expect(existsSync(path.join(root, 'fresh'))).toBe(false);
  });
});
