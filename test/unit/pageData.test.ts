import { dehydrate, hydrate, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonForScript } from '../../server/pages/memberPage';
import { formatCount } from '../../src/i18n/formatCount';
import { PAGE_DATA_ID } from '../../contract/pages/pageHandover';
import { asOfNow, takePageData } from '../../src/services/hydration/pageData';

/** Writes the element as the server does (server/pages/visitorPages.ts). */
function pageCarries(text: string) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = PAGE_DATA_ID;
  element.textContent = text;
  document.body.append(element);
}

afterEach(() => {
  document.getElementById(PAGE_DATA_ID)?.remove();
});

describe('the data of a page rendered on the server', () => {
  const server = new QueryClient();
  server.setQueryData(['memorial', 'p-1', 'page'], {
    lastName: '</script><script>alert(1)</script>',
    photoUrl: null,
  });
  const data = {
    hydration: { loaderData: { '0-12': null }, actionData: null, errors: null },
    queries: JSON.parse(JSON.stringify(dehydrate(server))) as ReturnType<typeof dehydrate>,
  };

  it('is taken once, escaped characters and all, and the element leaves the page', () => {
    pageCarries(jsonForScript(data));
    expect(takePageData()).toEqual(data);
    expect(document.getElementById(PAGE_DATA_ID)).toBeNull();
    expect(takePageData()).toBeUndefined();
  });

  it('is nothing when the page has none, or an element that does not parse or lacks a part', () => {
    expect(takePageData()).toBeUndefined();
    for (const text of [
      '{"hydration":',
      '{"queries":{"queries":[]}}',
      '{"hydration":{}}',
      'null',
    ]) {
      pageCarries(text);
      expect(takePageData(), text).toBeUndefined();
    }
  });

  it('hydrates the query cache with answers as fresh as the page, whatever the server clock', () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
    const skewed = {
      ...data.queries,
      queries: data.queries.queries.map((query) => ({
        ...query,
        state: { ...query.state, dataUpdatedAt: 0 },
      })),
    };
    hydrate(client, asOfNow(skewed, 1_000_000));
    const query = client.getQueryCache().find({ queryKey: ['memorial', 'p-1', 'page'] });
    expect(query?.state.data).toEqual({
      lastName: '</script><script>alert(1)</script>',
      photoUrl: null,
    });
    expect(query?.state.dataUpdatedAt).toBe(1_000_000);
  });
});

describe('counts as message arguments', () => {
  it('are written as Intl.NumberFormat writes whole numbers in Japanese', () => {
    for (const count of [0, 7, 99, 100, 999, 1000, 12345, 1234567, -4321]) {
      expect(formatCount(count)).toBe(new Intl.NumberFormat('ja').format(count));
    }
  });
});
