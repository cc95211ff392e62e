import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenRoutes } from '../../contract/pages/routeTable';
import { ensureSpaBuild } from '../../server/pages/build';
import { distDir, projectRoot } from '../../server/lib/paths';
import { BUILD_MANIFEST_FILE, screenModuleKeys } from '../../server/pages/routeModules';
import { createSpaApp, type SpaApp, withLoadingShell } from '../support/spaApp';

// A build as Vite leaves it, without the server's render: every page is index.html as built.
const INDEX =
  '<!doctype html><html lang="ja"><head><title>t</title></head><body><div id="root"></div></body></html>';

describe('the page of a client route', () => {
  let app: SpaApp;
  beforeAll(async () => {
    app = await createSpaApp({ 'index.html': INDEX, 'assets/LoginScreen-a.js': 'export {};' });
  });
  afterAll(async () => {
    await app?.close();
  });

  const page = (url: string, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
  const MEMBER = { cookie: 'theme=x; shinobu.session-token=anything' };

  it('is index.html, revalidated and kept per cookie, on any open route', async () => {
    for (const url of ['/login', '/memory/9', '/timecapsule', '/memory/invitation', '/no/such']) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(withLoadingShell(INDEX));
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toContain('Cookie');
    }
  });

  it('redirects a visitor from a member-only route to /login, keeping the page to return to', async () => {
    for (const url of [
      '/dashboard',
      '/dashboard?tab=2',
      '/mypage',
      '/endingnote/7',
      '/timecapsule/list',
    ]) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(302);
      // Plain /login, as the client's own navigation ends; the page asked for in a cookie the
      // client moves into nav.postLoginRedirectUrl.
      expect(response.headers.location, url).toBe('/login');
      expect(response.headers.vary, url).toContain('Cookie');
      const returnTo = response.cookies.find((cookie) => cookie.name === 'shinobu.return-to');
      expect(returnTo, url).toMatchObject({ value: url, path: '/', maxAge: 300, sameSite: 'Lax' });
      expect(returnTo?.httpOnly, url).toBeFalsy();
    }
  });

  it('serves member-only routes to a request with a session cookie or an Authorization header', async () => {
    for (const headers of [
      MEMBER,
      { cookie: '__Host-shinobu.session-token=x' },
      { authorization: 'Bearer x' },
    ]) {
      for (const url of ['/dashboard', '/mypage', '/endingnote/7']) {
        const response = await page(url, headers);
        expect(response.statusCode, url).toBe(200);
        expect(response.body, url).toBe(withLoadingShell(INDEX));
      }
    }
  });

  it('redirects only page requests, serves the assets and answers unknown API paths in JSON', async () => {
    expect((await app.app.inject({ method: 'GET', url: '/dashboard' })).statusCode).toBe(404);
    const asset = await app.app.inject({ method: 'GET', url: '/assets/LoginScreen-a.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const api = await page('/v1/no-such-call');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'not_found' });
  });
});

describe("a page names its screen's modules", () => {
  // Vite's manifest of a build: the entry and the login screen share a chunk.
  const MANIFEST = {
    'index.html': { file: 'assets/index-e.js', isEntry: true, imports: ['_shared.js'] },
    '_shared.js': { file: 'assets/shared-s.js' },
    '_form.js': { file: 'assets/form-f.js', imports: ['_shared.js'] },
    'src/screens/login/LoginScreen.tsx': {
      file: 'assets/LoginScreen-l.js',
      isDynamicEntry: true,
      imports: ['_form.js', 'index.html'],
    },
    'src/services/queries/queryClient.tsx': { file: 'assets/queryClient-q.js', imports: [] },
  };
  let app: SpaApp;
  beforeAll(async () => {
    app = await createSpaApp({
      'index.html': INDEX,
      '.vite/manifest.json': JSON.stringify(MANIFEST),
    });
  });
  afterAll(async () => {
    await app?.close();
  });
  const page = (url: string, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
  const preloaded = (html: string) =>
    [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

  it('preloads what the screen loads beyond the entry, for visitors and members alike', async () => {
    const expected = ['/assets/LoginScreen-l.js', '/assets/form-f.js', '/assets/queryClient-q.js'];
    expect(preloaded((await page('/login')).body).sort()).toEqual(expected.sort());
    const member = await page('/login', { cookie: 'shinobu.session-token=anything' });
    expect(preloaded(member.body).sort()).toEqual(expected.sort());
  });

  it("names the not-found screen's modules on any other path, and never serves the manifest", async () => {
    // This build's not-found screen has no chunk of its own; it loads the query client.
    expect(preloaded((await page('/no/such')).body)).toEqual(['/assets/queryClient-q.js']);
    const manifest = await app.app.inject({ method: 'GET', url: '/.vite/manifest.json' });
    expect(manifest.statusCode).toBe(404);
    expect(manifest.body).not.toContain('LoginScreen');
  });
});

describe("the pages of a real build name their screen's modules", () => {
  // The production build of the current sources (dist/, built here when older than them,
  // shared with the e2e servers): the keys the server looks up must be the build's own, or a
  // screen's chunks are silently left out of its page.
  const outDir = distDir;
  let manifest: Record<string, { file: string; imports?: string[] }>;
  let app: SpaApp;
  beforeAll(async () => {
    await ensureSpaBuild(() => undefined);
    const manifestText = readFileSync(path.join(outDir, BUILD_MANIFEST_FILE), 'utf8');
    manifest = JSON.parse(manifestText) as typeof manifest;
    app = await createSpaApp({
      'index.html': readFileSync(path.join(outDir, 'index.html')),
      [BUILD_MANIFEST_FILE]: manifestText,
    });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });
  const preloaded = (html: string) =>
    [...html.matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)">/g)].map((m) => m[1]);

  it('every module a screen names is in the manifest', () => {
    for (const { screen } of screenRoutes) {
      for (const key of screenModuleKeys(screen, manifest))
        expect(Object.keys(manifest), screen).toContain(key);
    }
  });

  it("preloads the login screen's module and the query client's with it", async () => {
    const response = await app.app.inject({
      method: 'GET',
      url: '/login',
      headers: { accept: 'text/html' },
    });
    const links = preloaded(response.body);
    expect(links).toContain(manifest['src/screens/login/LoginScreen.tsx']!.file);
    const [, queryClientKey] = screenModuleKeys('login/LoginScreen', manifest);
    expect(links).toContain(manifest[queryClientKey!]!.file);
  });

  /** The source modules bundled into a built file, from its sourcemap, relative to the project. */
  const sourcesOf = (file: string): string[] => {
    const map = path.join(outDir, `${file}.map`);
    if (!existsSync(map)) return [];
    const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
    return sources.map((source) =>
      path.relative(projectRoot, path.resolve(path.dirname(path.join(outDir, file)), source)),
    );
  };
  const allSources = () =>
    new Set(
      readdirSync(path.join(outDir, 'assets'))
        .filter((file) => file.endsWith('.js'))
        .flatMap((file) => sourcesOf(`assets/${file}`)),
    );

  // What a visitor's public memorial page needs: the client state and its pet-admin setting
  // (both run for every page); every other statechart is a member's flow, or a screen's.
  const VISITOR_MACHINES = ['clientState.ts', 'petAdmin.ts', 'registrationRules.ts'];
  /** The contract's modules that carry the API document's examples (`examples:`, examples.json). */
  const contractWithExamples = readdirSync(path.join(projectRoot, 'contract'))
    .filter((file) => /\.(ts|json)$/.test(file))
    .filter((file) =>
      /examples/.test(readFileSync(path.join(projectRoot, 'contract', file), 'utf8')),
    )
    .map((file) => `contract/${file}`);
  const notForVisitors = [
    // The XState inspector, and the hooks that run the member flows' statecharts.
    'node_modules/@statelyai/inspect',
    'src/services/clientState/inspector.ts',
    'node_modules/@xstate/react',
    ...readdirSync(path.join(projectRoot, 'src/machines'))
      .filter((file) => !VISITOR_MACHINES.includes(file))
      .map((file) => `src/machines/${file}`),
    // Signing in: the session's calls, the login screens.
    'src/services/api/session.ts',
    'src/services/session/sessionRuntime.ts',
    'src/screens/login/',
    // Editing a memorial page.
    'src/screens/memory/AlbumEditing.tsx',
    'src/screens/memory/HistoryEditing.tsx',
    'src/screens/memory/ProfileEditor.tsx',
    'src/screens/memory/SettingsSection.tsx',
    'src/screens/memory/ShareSection.tsx',
    'src/screens/memory/KeepsakeSection.tsx',
    'contract/examples.json',
    ...contractWithExamples,
  ];

  it("loads none of the members' code on a visitor's public memorial page", async () => {
    const response = await app.app.inject({
      method: 'GET',
      url: '/memory/a-public-page',
      headers: { accept: 'text/html' },
    });
    // What the browser fetches before the page can run: the entry's scripts and preloads, and
    // those the server names for the memorial screen.
    const files = [
      ...response.body.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="\/(assets\/[^"]+\.js)"/g),
    ].map((match) => match[1]!);
    const loaded = new Set(files.flatMap(sourcesOf));
    // The sourcemaps are read: the page's own modules are there.
    expect(loaded).toContain('src/main.tsx');
    expect(loaded).toContain('src/screens/memory/MemoryScreen.tsx');
    expect(loaded).toContain('node_modules/xstate/dist/xstate.esm.js');
    // Each module named is one the build has (the inspector only in development; the
    // contract's modules are read from the folder), so the check cannot pass because a name
    // went stale.
    expect(contractWithExamples).toContain('contract/memorial.ts');
    const built = [...allSources()];
    for (const module of notForVisitors.filter((name) => !/inspect|^contract\//.test(name))) {
      expect(
        built.some((source) => source.startsWith(module)),
        module,
      ).toBe(true);
    }
    const pulledIn = notForVisitors.filter((module) =>
      [...loaded].some((source) => source.startsWith(module)),
    );
    expect(pulledIn).toEqual([]);
  });
});

describe('the translations', () => {
  // As the build leaves them: the file, and its brotli and gzip copies beside it.
  const FTL = 'app-name = 偲ぶ\n';
  let app: SpaApp;
  beforeAll(async () => {
    app = await createSpaApp({
      'index.html': INDEX,
      'i18n/ja/translation.ftl': FTL,
      'i18n/ja/translation.ftl.br': brotliCompressSync(FTL),
      'i18n/ja/translation.ftl.gz': gzipSync(FTL),
    });
  });
  afterAll(async () => {
    await app?.close();
  });
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url, headers });

  it("are the build's text in UTF-8, revalidated on every use", async () => {
    const plain = await get('/i18n/ja/translation.ftl');
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(FTL);
    expect(plain.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('no-cache');
    const again = await get('/i18n/ja/translation.ftl', {
      'if-none-match': String(plain.headers.etag),
    });
    expect(again.statusCode).toBe(304);
  });

  it('go compressed to a browser that accepts it, and are none for another locale', async () => {
    const br = await get('/i18n/ja/translation.ftl', {
      'accept-encoding': 'gzip, deflate, br, zstd',
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(FTL);
    const gzip = await get('/i18n/ja/translation.ftl', { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(FTL);
    const english = await get('/i18n/en/translation.ftl');
    expect(english.statusCode).toBe(404);
    expect(english.json()).toMatchObject({ code: 'not_found' });
  });
});
