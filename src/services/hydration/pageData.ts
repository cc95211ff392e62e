import type { DehydratedState } from '@tanstack/react-query';
import type { HydrationState } from 'react-router';
import { PAGE_DATA_ID } from '../../../contract/pages/pageHandover';

/**
 * What the server's render read for a page, under the query key the screen reads it with:
 * the answer as the API sends it, or the first page of a paged list (`paged`).
 */
export interface PreparedRead {
  key: readonly unknown[];
  answer: unknown;
  paged?: boolean;
}

/**
 * What a page rendered on the server hands the browser: React Router's data, and TanStack
 * Query's own dehydrated cache (the queries the server prefetched).
 */
export interface PageData {
  hydration: HydrationState;
  queries: DehydratedState;
}

/** The page's data, when the server rendered it; undefined for the plain page. */
export function takePageData(doc: Document = document): PageData | undefined {
  const element = doc.getElementById(PAGE_DATA_ID);
  if (!element) return undefined;
  element.remove();
  try {
    const data = JSON.parse(element.textContent ?? '') as Partial<PageData> | null;
    if (!data?.hydration || !Array.isArray(data.queries?.queries)) return undefined;
    return { hydration: data.hydration, queries: data.queries };
  } catch {
    return undefined;
  }
}

/**
 * The queries as of now: the server's clock is not the browser's, and the answers are as
 * fresh as the page that carries them (else a phone whose clock runs ahead reads them again).
 */
export function asOfNow(state: DehydratedState, now = Date.now()): DehydratedState {
  return {
    ...state,
    queries: state.queries.map((query) => ({
      ...query,
      state: { ...query.state, dataUpdatedAt: now },
    })),
  };
}
