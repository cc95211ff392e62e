import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_PRELOADS_FILE, ROUTE_PRELOADS_FILE } from '../../server/paths';
import type { MemberRender } from '../../server/routes/pageRenderer';
import { screenRoutes } from '../../src/screens/routeTable';
import { createSnapshotRenderer } from '../../src/snapshot/prerender';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createSpaApp, memberPage, type SpaApp } from '../support/spaApp';
import type { TestApp } from '../support/testApp';

// A build as vite.config.ts leaves it; the snapshot renderer is the sources' own.
const INDEX =
  '<!doctype html><html><head><title>t</title>' +
  '<script type="module" crossorigin src="/assets/index-abc.js"></script>' +
  '</head><body><div id="root"></div></body></html>';
const PRELOADS = {
  ...Object.fromEntries(screenRoutes.map(({ path: route }) => [route, []])),
  '/endingnote/:userId': ['/assets/EndingNoteScreen-a.js'],
};
const MEMBER_CHUNKS = ['/assets/member-c.js'];
const translations = readFileSync('src/i18n/ja/translation.ftl', 'utf8');

/** What an owner wrote: markup, a script end and replacement patterns, all to stay text. */
const FULL_NAME = '偲 </script><b>太郎</b> $& $1';

const snapshotOf = (html: string) =>
  /<div id="snapshot" inert>([\s\S]*?)<\/div><div id="root" hidden><\/div>/.exec(html)?.[1];
const inlineScript = (html: string) =>
  /<script data-entry="([^"]*)" data-preloads="([^"]*)">([\s\S]*?)<\/script>/.exec(html);

describe("the first paint of a member's ending note, drawn per request (issue 6)", () => {
  let app: SpaApp;
  let owner: TestMember;
  let reader: TestMember;
  let stranger: TestMember;
  const drawnFor: { url: string; member?: MemberRender }[] = [];
  beforeAll(async () => {
    app = await createSpaApp(
      {
        'index.html': INDEX,
        [ROUTE_PRELOADS_FILE]: JSON.stringify(PRELOADS),
        [MEMBER_PRELOADS_FILE]: JSON.stringify(MEMBER_CHUNKS),
      },
      {
        pageRenderer: async () => {
          const render = await createSnapshotRenderer(translations);
          return (url, answers, member) => {
            drawnFor.push({ url, member });
            return render(url, answers, member);
          };
        },
      },
    );
    const maker = { ctx: app.ctx, clock: app.ctx.clock, config: app.ctx.config };
    [owner, reader, stranger] = [
      await createMember(maker),
      await createMember(maker),
      await createMember(maker),
    ];
    await connectMembers(
      { ctx: app.ctx, clock: app.ctx.clock } as unknown as TestApp,
      owner,
      reader,
    );
    await ownerCall('PUT', `/v1/endingnote/${owner.id}/sections/self`, {
      version: 0,
      values: { full_name: FULL_NAME, birthdate: '', family: '' },
    });
    await ownerCall('PUT', `/v1/endingnote/${owner.id}/sections/self/visibility`, {
      visibility: 'readers_now',
    });
    await ownerCall('PUT', `/v1/endingnote/${owner.id}/readers`, { user_ids: [reader.id] });
  });
  afterAll(async () => {
    await app?.close();
  });

  async function ownerCall(method: 'PUT', url: string, payload: object) {
    const response = await app.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${owner.token}` },
      payload,
    });
    expect(response.statusCode).toBe(200);
    return response.json() as { version: number };
  }
  const page = (member: TestMember, path = `/endingnote/${owner.id}`) =>
    memberPage(app, member, path);

  it("draws the owner's note into their page, their text as text, never cached", async () => {
    const response = await page(owner);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store, private');
    expect(response.headers.vary).toContain('Cookie');
    const snapshot = snapshotOf(response.body);
    expect(snapshot).toBeDefined();
    // The note's screen, as the browser's first render draws it: the sections, the first one's
    // fields with what the owner saved in them.
    expect(snapshot).toContain('エンディングノート');
    expect(snapshot).toContain('医療・介護');
    expect(snapshot).toContain('氏名');
    expect(snapshot).toContain('偲 &lt;/script&gt;&lt;b&gt;太郎&lt;/b&gt; $&amp; $1');
    expect(snapshot).not.toContain('<b>');
    expect(response.body).toContain('<style id="snapshot-style">');
    // Drawn for the session's member, from the answers the page carries for the app.
    expect(drawnFor.at(-1)?.member?.user.id).toBe(owner.id);
    expect(response.body).toContain('id="shinobu-page-answers"');
    expect(response.body).toContain('id="shinobu-session"');
  });

  it("starts the app's code after the paint, from the one inline script the policy allows", async () => {
    const response = await page(owner);
    expect(response.body).not.toContain('<script type="module"');
    expect(response.body).not.toContain('rel="modulepreload"');
    const script = inlineScript(response.body);
    expect(script?.[1]).toBe('/assets/index-abc.js');
    expect(script?.[2]?.split(' ')).toEqual(['/assets/EndingNoteScreen-a.js', ...MEMBER_CHUNKS]);
    const hash = `'sha256-${createHash('sha256').update(script![3]!).digest('base64')}'`;
    const policy = String(response.headers['content-security-policy']);
    const scriptSources = /script-src ([^;]*)/.exec(policy)?.[1]?.split(' ');
    expect(scriptSources).toEqual(["'self'", hash]);
    // The script is the page's last, after the answers the app reads.
    expect(response.body.indexOf('id="shinobu-page-answers"')).toBeLessThan(script!.index);
  });

  it('draws for a designated reader what the note opens to them', async () => {
    const response = await page(reader);
    const snapshot = snapshotOf(response.body);
    expect(snapshot).toContain('偲 &lt;/script&gt;&lt;b&gt;太郎&lt;/b&gt;');
    expect(drawnFor.at(-1)?.member?.user.id).toBe(reader.id);
    // Only the open section: the private ones are not among the sections drawn.
    expect(snapshot).not.toContain('医療・介護');
  });

  it('draws nothing for a note the API refuses, nor on other routes', async () => {
    const refused = await page(stranger);
    expect(refused.statusCode).toBe(200);
    expect(snapshotOf(refused.body)).toBeUndefined();
    expect(refused.body).toContain('<script type="module"');
    const other = await page(owner, '/mypage');
    expect(snapshotOf(other.body)).toBeUndefined();
  });

  it('draws a page again only when what it shows changed, and the section the query names', async () => {
    await page(owner);
    const before = drawnFor.length;
    await page(owner, `/endingnote/${owner.id}?utm_source=mail`);
    expect(drawnFor.length).toBe(before);
    const assets = await page(owner, `/endingnote/${owner.id}?section=assets&utm_source=mail`);
    expect(drawnFor.at(-1)?.url).toBe(`/endingnote/${owner.id}?section=assets`);
    expect(snapshotOf(assets.body)).toContain('預貯金');
    const { version } = await ownerCall('PUT', `/v1/endingnote/${owner.id}/sections/self`, {
      version: 1,
      values: { full_name: '偲 花子', birthdate: '', family: '' },
    });
    expect(version).toBe(2);
    const changed = await page(owner);
    expect(snapshotOf(changed.body)).toContain('偲 花子');
  });
});
