/**
 * The pure parts of a memorial page's first paint (docs/app-shell.md, "First paint of a
 * public memorial page"): which paths have one, the head markup with the member's text in it,
 * the page assembly, the kept renders, and the client taking the answers from the page.
 */
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { drawnUrl } from '../../server/routes/drawnUrl';
import {
  MEMORIAL_DRAWN_PARAMS,
  memorialPageHead,
  memorialPageIdOf,
} from '../../server/routes/memorialFirstPaint';
import { escapeHtml } from '../../server/domain/escapeHtml';
import { keepingRenders, type SnapshotRenderer } from '../../server/routes/pageRenderer';
import { withSnapshot } from '../../server/routes/spa';
import { seedQueryCache, takePageAnswers } from '../../src/snapshot/pageAnswers';

const PAGE_ID = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';

describe('memorialPageIdOf', () => {
  it('is the id of a memorial page path, as the client router matches it', () => {
    expect(memorialPageIdOf(`/memory/${PAGE_ID}`)).toBe(PAGE_ID);
    expect(memorialPageIdOf('/memory/a%20b')).toBe('a b');
    for (const other of [
      '/memory/top/me',
      '/memory/new',
      '/memory/invitation',
      `/memory/${PAGE_ID}/mourning`,
      '/login',
      '/',
    ]) {
      expect(memorialPageIdOf(other), other).toBeUndefined();
    }
  });
});

describe('drawnUrl', () => {
  it('keeps the path and only the parameters that change the drawing', () => {
    expect(drawnUrl('/memory/x', MEMORIAL_DRAWN_PARAMS)).toBe('/memory/x');
    expect(drawnUrl('/memory/x?utm_source=a&b=1', MEMORIAL_DRAWN_PARAMS)).toBe('/memory/x');
    expect(drawnUrl('/memory/x?a=1&inflow=True&z=2', MEMORIAL_DRAWN_PARAMS)).toBe(
      '/memory/x?inflow=True',
    );
  });
});

describe('memorialPageHead', () => {
  it('preloads the photo with an escaped address and carries the answers as inert JSON', () => {
    const head = memorialPageHead(
      '/memory/x',
      [{ key: ['memorial', 'x', 'page'], answer: { lastName: '</script><script>alert(1)' } }],
      'https://files.example/t.webp?a=1&b="2"',
    );
    expect(head).toContain(
      '<link rel="preload" as="image" fetchpriority="high" href="https://files.example/t.webp?a=1&amp;b=&quot;2&quot;">',
    );
    expect(head.match(/<\/script>/g)).toHaveLength(1);
    const json = /<script type="application\/json" id="shinobu-page-answers">(.*)<\/script>/.exec(
      head,
    )![1]!;
    expect(JSON.parse(json)).toEqual({
      path: '/memory/x',
      answers: [
        { key: ['memorial', 'x', 'page'], answer: { lastName: '</script><script>alert(1)' } },
      ],
    });
  });

  it('asks for no photo when the page has none', () => {
    expect(memorialPageHead('/memory/x', [], null)).not.toContain('<link');
    expect(escapeHtml(`<'&">`)).toBe('&lt;&#39;&amp;&quot;&gt;');
  });
});

describe('withSnapshot', () => {
  const INDEX =
    '<html><head><script type="module" crossorigin src="/assets/index.js"></script></head>' +
    '<body><div id="root"></div></body></html>';

  it("keeps a `$` in the member's text as it is (no replacement pattern)", () => {
    const html = "<h1>$&amp; $` $' $$ $1</h1>";
    const page = withSnapshot(INDEX, { html, css: '.a{}' }, '<meta name="x" content="$&">');
    expect(page).toContain(`<div id="snapshot" inert>${html}</div><div id="root" hidden></div>`);
    expect(page).toContain('<meta name="x" content="$&"><style id="snapshot-style">');
  });
});

describe('keepingRenders', () => {
  const counting = () => {
    const calls: string[] = [];
    const render: SnapshotRenderer = async (url, answers = []) => {
      calls.push(url);
      if (url === '/fails') throw new Error('no');
      return { html: `${url} ${JSON.stringify(answers)}`, css: '' };
    };
    return { calls, render };
  };

  it('renders the same URL and answers once, and again when either changes', async () => {
    const { calls, render } = counting();
    const kept = keepingRenders(render);
    const answers = [{ key: ['k'], answer: { n: 1 } }];
    expect((await kept('/a', answers)).html).toBe('/a [{"key":["k"],"answer":{"n":1}}]');
    await kept('/a', [{ key: ['k'], answer: { n: 1 } }]);
    expect(calls).toEqual(['/a']);
    await kept('/a', [{ key: ['k'], answer: { n: 2 } }]);
    await kept('/b', answers);
    expect(calls).toEqual(['/a', '/a', '/b']);
  });

  it('renders again when the year changes in Japan (the footer shows it)', async () => {
    const { calls, render } = counting();
    let now = new Date('2026-12-31T14:59:00Z');
    const kept = keepingRenders(render, 10, () => now);
    await kept('/a');
    now = new Date('2026-12-31T14:59:59Z');
    await kept('/a');
    expect(calls).toEqual(['/a']);
    now = new Date('2026-12-31T15:00:00Z');
    await kept('/a');
    expect(calls).toEqual(['/a', '/a']);
  });

  it('keeps at most its capacity, and no failure', async () => {
    const { calls, render } = counting();
    const kept = keepingRenders(render, 2);
    await kept('/a');
    await kept('/b');
    await kept('/c');
    await kept('/a');
    expect(calls).toEqual(['/a', '/b', '/c', '/a']);
    await expect(kept('/fails')).rejects.toThrow();
    await expect(kept('/fails')).rejects.toThrow();
    expect(calls.filter((url) => url === '/fails')).toHaveLength(2);
  });
});

describe('takePageAnswers', () => {
  const carry = (text: string) => {
    document.body.innerHTML = '';
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = 'shinobu-page-answers';
    element.textContent = text;
    document.body.append(element);
  };
  const answers = [{ key: ['memorial', 'x', 'page'], answer: { photo_thumbnail_url: '/t.webp' } }];

  it('takes the answers drawn for this path once, and seeds them as the HTTP client reads them', () => {
    carry(JSON.stringify({ path: '/memory/x', answers }));
    const taken = takePageAnswers('/memory/x');
    expect(taken).toEqual(answers);
    expect(document.getElementById('shinobu-page-answers')).toBeNull();
    expect(takePageAnswers('/memory/x')).toBeUndefined();

    const client = new QueryClient();
    seedQueryCache(client, taken!);
    expect(client.getQueryData(['memorial', 'x', 'page'])).toEqual({
      photoThumbnailUrl: '/t.webp',
    });
  });

  it('takes nothing drawn for another path, nor what does not parse', () => {
    carry(JSON.stringify({ path: '/memory/y', answers }));
    expect(takePageAnswers('/memory/x')).toBeUndefined();
    carry('{not json');
    expect(takePageAnswers('/memory/x')).toBeUndefined();
    carry(JSON.stringify({ path: '/memory/x', answers: [{ key: 'page' }, null, ...answers] }));
    expect(takePageAnswers('/memory/x')).toEqual(answers);
  });
});
