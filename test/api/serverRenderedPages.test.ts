import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareImageNameFor } from '../../server/domain/uploads/uploads';
import { createPageRenderer } from '../../src/entry-server';
import { memorialKeys } from '../../contract/pages/memorialKeys';
import type { PageData } from '../../src/services/hydration/pageData';
import { createMember, type TestMember } from '../support/members';
import { createSpaApp, type SpaApp, withLoadingShell } from '../support/spaApp';
import { jpegPhoto } from './memorialSupport';

// A build's index.html; the server render is the sources' own.
const INDEX =
  '<!doctype html><html lang="ja"><head><meta name="description" content="site" />' +
  '<title>t</title><script type="module" crossorigin src="/assets/index-abc.js"></script>' +
  '</head><body><div id="root"></div></body></html>';
const translations = readFileSync('src/i18n/ja/translation.ftl', 'utf8');

/** A member's own text: markup, a script end and replacement patterns, all to stay text. */
const ENTRY = 'Moved </script><b>north</b> $& $` $1';

const dataIn = (html: string): PageData | undefined => {
  const carried = /<script type="application\/json" id="shinobu-page-data">(.*?)<\/script>/s.exec(
    html,
  )?.[1];
  return carried === undefined ? undefined : (JSON.parse(carried) as PageData);
};
const metaIn = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1];

describe('pages rendered on the server for a visitor', () => {
  let app: SpaApp;
  let member: TestMember;
  beforeAll(async () => {
    app = await createSpaApp(
      { 'index.html': INDEX },
      { serverRender: () => createPageRenderer(translations) },
    );
    member = await createMember({ ctx: app.ctx, clock: app.ctx.clock, config: app.ctx.config });
  });
  afterAll(async () => {
    await app?.close();
  });

  const api = (method: 'GET' | 'PATCH' | 'POST', url: string, body?: object) =>
    app.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${member.token}` },
      ...(body ? { payload: body } : {}),
    });
  const page = (url: string, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
  const setPage = async (change: object) => {
    const changed = await api('PATCH', `/v1/memorial_page/${member.memorialPageId}`, change);
    expect(changed.statusCode, changed.body).toBe(200);
  };
  /** Uploads a photo as the member; answers its object name. */
  const uploadPhoto = async (fileName: string, width: number, height: number) => {
    const signed = await api('GET', `/v1/signed_url?method=PUT&image_name=${fileName}`);
    const { url, imageName } = signed.json() as { url: string; imageName: string };
    const target = new URL(url);
    const put = await app.app.inject({
      method: 'PUT',
      url: target.pathname + target.search,
      headers: { 'content-type': 'image/jpeg' },
      payload: await jpegPhoto(width, height),
    });
    expect(put.statusCode).toBe(204);
    return imageName;
  };
  const shareImage = (headers: Record<string, string> = {}) =>
    app.app.inject({
      method: 'GET',
      url: `/v1/memorial_page/${member.memorialPageId}/share_image.jpg`,
      headers,
    });

  it('render a public memorial page from what the API answers a visitor, with its share preview', async () => {
    const signed = await api('GET', '/v1/signed_url?method=PUT&image_name=portrait.jpg');
    const { url, imageName: photo } = signed.json() as { url: string; imageName: string };
    const target = new URL(url);
    const put = await app.app.inject({
      method: 'PUT',
      url: target.pathname + target.search,
      headers: { 'content-type': 'image/jpeg' },
      payload: await jpegPhoto(800, 600),
    });
    expect(put.statusCode).toBe(204);
    await setPage({ privacy: 'public', photo_name: photo });
    const added = await api(
      'POST',
      `/v1/history/memorial_page_id/${member.memorialPageId}/history`,
      { occurred_on: '1980-04-01', body: ENTRY },
    );
    expect(added.statusCode, added.body).toBe(201);
    const id = member.memorialPageId;

    const response = await page(`/memory/${id}?utm_source=line`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.vary).toContain('Cookie');
    const html = response.body;
    expect(html).toMatch(/<div id="root">.*<h1 id="memory-profile-title">山田 太郎<\/h1>/s);
    expect(html).toContain('<title>山田 太郎のメモリアルページ｜偲ぶ</title>');
    expect(html).toContain('<style data-styled="true"');
    // The member's text is text: escaped in the markup, and unable to end the data's element.
    expect(html).toContain('Moved &lt;/script&gt;&lt;b&gt;north&lt;/b&gt; $&amp; $` $1');
    expect(html).not.toContain('<b>north</b>');
    expect(html.match(/<\/script>/g)).toHaveLength(2);

    const publicUrl = app.ctx.config.publicUrl;
    expect(metaIn(html, 'og:title')).toBe('山田 太郎のメモリアルページ｜偲ぶ');
    expect(metaIn(html, 'og:description')).toContain('山田 太郎');
    expect(metaIn(html, 'description')).toBe(metaIn(html, 'og:description'));
    expect(metaIn(html, 'og:url')).toBe(`${publicUrl}/memory/${id}`);
    expect(metaIn(html, 'og:image')).toBe(`${publicUrl}/v1/memorial_page/${id}/share_image.jpg`);
    expect(metaIn(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaIn(html, 'og:site_name')).toBe('偲ぶ Shinobu');

    const visitorRead = async (url: string) =>
      JSON.parse((await app.app.inject({ method: 'GET', url })).body) as unknown;
    const data = dataIn(html)!;
    // TanStack Query's own dehydrated cache: each read under the key the screen queries, the
    // album and the history as the first page of their paged calls.
    const queried = (key: readonly unknown[]) =>
      data.queries.queries.find((query) => JSON.stringify(query.queryKey) === JSON.stringify(key))
        ?.state.data;
    const firstPage = (answer: unknown) => ({ pages: [answer], pageParams: [null] });
    expect(data.queries.queries).toHaveLength(4);
    expect(queried(memorialKeys.page(id))).toEqual(await visitorRead(`/v1/memorial_page/${id}`));
    expect(queried(memorialKeys.albumPages(id))).toEqual(
      firstPage(await visitorRead(`/v1/album/memorial_page_id/${id}/album/paged?limit=12`)),
    );
    expect(queried(memorialKeys.historyPages(id))).toEqual(
      firstPage(
        await visitorRead(`/v1/history/get_histories_by_memorial_page_id/${id}/paged?limit=12`),
      ),
    );
    expect(queried(memorialKeys.admins(id))).toEqual(
      await visitorRead(`/v1/memorial_page/get_memorial_page_admin/${id}`),
    );
    expect(Object.values(data.hydration.loaderData ?? {})).toContain(null);

    const image = await app.app.inject({
      method: 'GET',
      url: `/v1/memorial_page/${id}/share_image.jpg`,
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['cache-control']).toBe('public, max-age=300');
    const { width, height, format } = await sharp(image.rawPayload).metadata();
    expect({ width, height, format }).toEqual({ width: 1200, height: 630, format: 'jpeg' });
  });

  it('show a visitor no member’s icon, in the markup nor in the data it hydrates from', async () => {
    const signed = await api('GET', '/v1/signed_url?method=PUT&image_name=icon.jpg');
    const { url, imageName: icon } = signed.json() as { url: string; imageName: string };
    const target = new URL(url);
    const put = await app.app.inject({
      method: 'PUT',
      url: target.pathname + target.search,
      headers: { 'content-type': 'image/jpeg' },
      payload: await jpegPhoto(64, 64),
    });
    expect(put.statusCode).toBe(204);
    expect((await api('PATCH', '/v1/mypage/profile', { icon_name: icon })).statusCode).toBe(200);
    await setPage({ privacy: 'public' });
    const id = member.memorialPageId;
    // A signed-in member is shown it.
    const admins = (await api('GET', `/v1/memorial_page/get_memorial_page_admin/${id}`)).json();
    expect((admins as { iconUrl: string | null }[])[0]!.iconUrl).toContain(icon);

    const html = (await page(`/memory/${id}`)).body;
    expect(html).toMatch(/<div id="root">.*<h1 id="memory-profile-title">/s);
    const iconId = icon.replace(/^uploads\/|\.jpg$/g, '');
    expect(html).not.toContain(iconId);
    const seeded = dataIn(html)!.queries.queries.find(
      ({ queryKey }) => queryKey.join() === memorialKeys.admins(id).join(),
    );
    expect(seeded?.state.data).toEqual([
      expect.objectContaining({ userId: member.id, iconUrl: null }),
    ]);
  });

  it('make the share image once per cover photo, keep it in the store and answer 304 to its ETag', async () => {
    const photo = await uploadPhoto('cover.jpg', 900, 700);
    await setPage({ privacy: 'public', photo_name: photo });
    const first = await shareImage();
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const kept = await app.ctx.store.get(shareImageNameFor(photo));
    expect(kept?.body.equals(first.rawPayload)).toBe(true);

    // What is kept is what is served: a second request makes nothing anew.
    const keptInstead = await sharp({
      create: { width: 1200, height: 630, channels: 3, background: '#335577' },
    })
      .jpeg()
      .toBuffer();
    await app.ctx.store.put(shareImageNameFor(photo), keptInstead, 'image/jpeg');
    const second = await shareImage();
    expect(second.headers.etag).toBe(etag);
    expect(second.rawPayload.equals(keptInstead)).toBe(true);
    const held = await shareImage({ 'if-none-match': etag });
    expect(held.statusCode).toBe(304);
    expect(held.rawPayload.length).toBe(0);
    expect(held.headers['cache-control']).toBe('public, max-age=300');

    // A new cover photo makes a new preview, and the old one goes with its photo.
    const next = await uploadPhoto('cover2.jpg', 640, 640);
    await setPage({ photo_name: next });
    const changed = await shareImage({ 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.rawPayload.equals(keptInstead)).toBe(false);
    expect(await app.ctx.store.get(shareImageNameFor(photo))).toBeUndefined();
  });

  it('write the share tags without bidirectional or zero-width controls', async () => {
    const controls = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\ufeff',
    ];
    await setPage({
      privacy: 'public',
      last_name: `A${controls.join('')}B`,
      first_name: '\u202e子',
    });
    const html = (await page(`/memory/${member.memorialPageId}`)).body;
    for (const key of ['og:title', 'og:description', 'description']) {
      const text = metaIn(html, key) ?? '';
      expect(text, key).toContain('AB 子');
      expect(
        [...text].filter((char) => controls.includes(char)),
        key,
      ).toEqual([]);
    }
    const twitter = [...html.matchAll(/<meta name="twitter:[^"]*" content="([^"]*)">/g)];
    expect(twitter.length).toBeGreaterThan(0);
    for (const [, text] of twitter) {
      expect([...text!].filter((char) => controls.includes(char))).toEqual([]);
    }
    await setPage({ last_name: '山田', first_name: '太郎' });
  });

  it('give crawlers nothing of a page that is not public, nor its share image', async () => {
    for (const privacy of ['link', 'connections', 'admins']) {
      await setPage({ privacy });
      const response = await page(`/memory/${member.memorialPageId}`);
      expect(response.statusCode, privacy).toBe(200);
      expect(response.body, privacy).toBe(withLoadingShell(INDEX));
      const image = await app.app.inject({
        method: 'GET',
        url: `/v1/memorial_page/${member.memorialPageId}/share_image.jpg`,
      });
      expect(image.statusCode, privacy).toBe(404);
    }
    expect((await page('/memory/00000000-0000-4000-8000-000000000000')).body).toBe(
      withLoadingShell(INDEX),
    );
  });

  it('render /login and / with their titles, in the theme the reader chose', async () => {
    const login = await page('/login?callbackUrl=%2Fmypage');
    expect(login.body).toContain('<title>ログイン｜偲ぶ</title>');
    expect(login.body).toMatch(/<div id="root">.*<h1>ログイン<\/h1>/s);
    expect(login.body).toContain('<html lang="ja">');
    const dark = await page('/login', { cookie: 'shinobu-theme=dark' });
    expect(dark.body).toContain('<html lang="ja" data-theme="dark">');
    const odd = await page('/login', { cookie: 'shinobu-theme="><script>' });
    expect(odd.body).toContain('<html lang="ja">');
    const home = await page('/');
    expect(home.body).toContain('<title>大切な人を想う終活・追悼サービス｜偲ぶ</title>');
    expect(dataIn(home.body)).toBeDefined();
  });

  it('leave a member and the other routes to the browser', async () => {
    await setPage({ privacy: 'public' });
    const memberPage = await page(`/memory/${member.memorialPageId}`, {
      cookie: 'shinobu.session-token=anything',
    });
    expect(memberPage.body).toBe(withLoadingShell(INDEX));
    for (const url of ['/register-top', '/timecapsule', '/memory/top/me']) {
      expect((await page(url)).body, url).toBe(withLoadingShell(INDEX));
    }
  });
});
