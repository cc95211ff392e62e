import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_PRELOADS_FILE } from '../../server/paths';
import { screenRoutes } from '../../src/screens/routeTable';
import { memorialWarmUp } from '../../server/routes/memorialFirstPaint';
import { memorialKeys } from '../../src/services/api/memorialKeys';
import type { PageAnswers } from '../../src/snapshot/pageAnswers';
import { createSnapshotRenderer } from '../../src/snapshot/prerender';
import { createMember, type TestMember } from '../support/members';
import { createSpaApp, type SpaApp } from '../support/spaApp';

// A build as vite.config.ts leaves it; the snapshot renderer is the sources' own.
const INDEX =
  '<!doctype html><html><head><title>t</title>' +
  '<script type="module" crossorigin src="/assets/index-abc.js"></script>' +
  '</head><body><div id="root"></div></body></html>';
const PRELOADS = Object.fromEntries(screenRoutes.map(({ path: route }) => [route, []]));
const translations = readFileSync('src/i18n/ja/translation.ftl', 'utf8');

/** A member's own text: markup, a script end and replacement patterns, all to stay text. */
const ENTRY = 'Moved </script><b>north</b> $& $` $1';

const answersIn = (html: string): PageAnswers | undefined => {
  const carried =
    /<script type="application\/json" id="shinobu-page-answers">(.*?)<\/script>/s.exec(html)?.[1];
  return carried === undefined ? undefined : (JSON.parse(carried) as PageAnswers);
};

describe('the first paint of a memorial page, drawn per request for a visitor', () => {
  let app: SpaApp;
  let member: TestMember;
  let renders = 0;
  beforeAll(async () => {
    app = await createSpaApp(
      { 'index.html': INDEX, [ROUTE_PRELOADS_FILE]: JSON.stringify(PRELOADS) },
      {
        pageRenderer: async () => {
          const render = await createSnapshotRenderer(translations);
          return (url, answers) => {
            renders += 1;
            return render(url, answers);
          };
        },
      },
    );
    member = await createMember({
      ctx: app.ctx,
      clock: app.ctx.clock,
      config: app.ctx.config,
    });
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
  const setPrivacy = async (privacy: string) => {
    const changed = await api('PATCH', `/v1/memorial_page/${member.memorialPageId}`, { privacy });
    expect(changed.statusCode, changed.body).toBe(200);
  };

  it("draws a public page with the answers the API gives a visitor, and the client's keys", async () => {
    await setPrivacy('public');
    const added = await api(
      'POST',
      `/v1/history/memorial_page_id/${member.memorialPageId}/history`,
      { occurred_on: '1980-04-01', body: ENTRY },
    );
    expect(added.statusCode, added.body).toBe(201);
    const path = `/memory/${member.memorialPageId}`;

    const response = await page(path);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.vary).toContain('Cookie');
    const html = response.body;
    expect(html).toMatch(
      /<div id="snapshot" inert>.*<h1 id="memory-profile-title">山田 太郎<\/h1>/s,
    );
    expect(html).toContain('<div id="root" hidden></div>');
    expect(html).toContain('data-entry="/assets/index-abc.js"');
    // The member's text is text: escaped in the markup, and unable to end the JSON's element.
    expect(html).toContain('Moved &lt;/script&gt;&lt;b&gt;north&lt;/b&gt; $&amp; $` $1');
    expect(html).not.toContain('<b>north</b>');
    // The start-after-paint script's end and the answers' own: none from the member's text.
    expect(html.match(/<\/script>/g)).toHaveLength(2);

    const id = member.memorialPageId;
    const visitorRead = async (url: string) =>
      JSON.parse((await app.app.inject({ method: 'GET', url })).body) as unknown;
    expect(answersIn(html)).toEqual({
      path,
      answers: [
        { key: memorialKeys.page(id), answer: await visitorRead(`/v1/memorial_page/${id}`) },
        {
          key: memorialKeys.album(id),
          answer: await visitorRead(`/v1/album/memorial_page_id/${id}/album`),
        },
        {
          key: memorialKeys.histories(id),
          answer: await visitorRead(`/v1/history/get_histories_by_memorial_page_id/${id}`),
        },
        {
          key: memorialKeys.admins(id),
          answer: await visitorRead(`/v1/memorial_page/get_memorial_page_admin/${id}`),
        },
      ],
    });
  });

  it('goes out gzipped to a browser that takes it, and is rendered once while nothing changed', async () => {
    const path = `/memory/${member.memorialPageId}`;
    const before = renders;
    const response = await page(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toContain('Accept-Encoding');
    const html = gunzipSync(response.rawPayload).toString('utf8');
    expect(html).toContain('<h1 id="memory-profile-title">山田 太郎</h1>');
    // A query the page does not draw is the same render.
    expect((await page(`${path}?utm_source=mail&x=${Math.random()}`)).body).toContain('山田 太郎');
    expect(renders).toBe(before);
  });

  it('leaves a page a visitor may not see plain, also once it was public', async () => {
    const path = `/memory/${member.memorialPageId}`;
    for (const privacy of ['link', 'connections', 'admins']) {
      await setPrivacy(privacy);
      const response = await page(path);
      expect(response.statusCode, privacy).toBe(200);
      expect(response.body, privacy).not.toContain('snapshot');
      expect(response.body, privacy).not.toContain('shinobu-page-answers');
      expect(response.body, privacy).not.toContain('山田');
      expect(response.body, privacy).toContain('<div id="root"></div>');
    }
    const missing = await page('/memory/00000000-0000-4000-8000-000000000000');
    expect(missing.body).not.toContain('snapshot');
  });

  it('leaves the page plain for a member, and other routes alone', async () => {
    await setPrivacy('public');
    const path = `/memory/${member.memorialPageId}`;
    for (const headers of [
      { cookie: 'shinobu.session-token=anything' } as Record<string, string>,
      { authorization: `Bearer ${member.token}` },
    ]) {
      const response = await page(path, headers);
      expect(response.body).not.toContain('snapshot');
      expect(response.body).not.toContain('shinobu-page-answers');
    }
    for (const url of ['/memory/top/me', '/memory/new', `${path}/mourning`]) {
      expect((await page(url)).body, url).not.toContain('snapshot');
    }
  });

  it("warms the renderer up with a whole page (the screen's sections, no loading state)", async () => {
    const { url, answers } = memorialWarmUp();
    const { html } = await (await createSnapshotRenderer(translations))(url, answers);
    expect(html).toContain('<h1 id="memory-profile-title">warm up</h1>');
    for (const section of ['id="album"', 'id="history"', 'id="admins"', 'warm-up.webp']) {
      expect(html).toContain(section);
    }
    expect(html).not.toContain('aria-busy="true"');
  });
});
