import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type App, type AppOverrides } from '../../server/app';
import { loadConfig } from '../../server/config';
import { sealSession } from '../../server/domain/accounts/sessionCookie';
import type { TestMember } from './members';
import { createTestDatabase } from './testDatabase';

export interface SpaApp extends App {
  close(): Promise<void>;
}

/**
 * What the server puts in the app's empty root of a page it does not render, as the member
 * sees it while the scripts load, and without JavaScript.
 */
export const LOADING_SHELL =
  '<div id="root"><p role="status">読み込んでいます…</p></div>' +
  '<noscript><p>偲ぶ(しのぶ)をお使いいただくには、ブラウザのJavaScriptを有効にしてください。</p></noscript>';

/** `html` with its empty root as the server sends it (LOADING_SHELL). */
export const withLoadingShell = (html: string) =>
  html.replace('<div id="root"></div>', LOADING_SHELL);

/**
 * The whole app serving a made-up build of the SPA: `files` (paths inside the build folder,
 * such as `index.html` or `assets/x.js`, with their contents) are written before it starts.
 * `serverRender` stands for the build's server render (the sources' own, say).
 */
export async function createSpaApp(
  files: Record<string, string | Buffer>,
  options: Pick<AppOverrides, 'clock' | 'serverRender'> = {},
): Promise<SpaApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-spa-'));
  const spaRoot = path.join(dataDir, 'dist');
  for (const [name, contents] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(spaRoot, name)), { recursive: true });
    writeFileSync(path.join(spaRoot, name), contents);
  }
  const database = await createTestDatabase();
  const app = await buildApp(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }), database, {
    mailer: { send: async () => undefined },
    spaRoot,
    ...options,
  });
  await app.app.ready();
  return {
    ...app,
    close: async () => {
      await app.app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The session cookie's name over HTTP (server/routes/auth/sessionKit.ts). */
export const SESSION_COOKIE = 'shinobu.session-token';

/** A GET of the page at `path`, as a browser asks for it, with `member`'s session cookie. */
export async function memberPage(app: SpaApp, member: TestMember, path: string) {
  const { value } = await sealSession(
    {
      user: { id: member.id, username: 'm', memorialPageId: null, iconUrl: null },
      accessToken: member.token,
      refreshToken: 'refresh-1',
    },
    app.ctx.config.authSecret,
    app.ctx.clock,
  );
  return app.app.inject({
    method: 'GET',
    url: path,
    headers: { accept: 'text/html' },
    cookies: { [SESSION_COOKIE]: value },
  });
}
