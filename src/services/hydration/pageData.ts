import type { QueryClient } from '@tanstack/react-query';
import type { HydrationState } from 'react-router';
import { PAGE_DATA_ID } from '../../contract/pages/pageHandover';
import { toCamelCase } from '../http/casing';

/** One read's answer as the API sends it, under the query key the screen reads it with. */
export interface SeededAnswer {
  key: readonly unknown[];
  answer: unknown;
}

export interface PageData {
  hydration: HydrationState;
  answers: SeededAnswer[];
}

/**
 * Puts the answers into `client`'s cache as the app's HTTP client would have read them
 * (camelCase, services/http/casing.ts), fresh as of now.
 */
export function seedQueryCache(client: QueryClient, answers: readonly SeededAnswer[]): void {
  for (const { key, answer } of answers) client.setQueryData(key, toCamelCase(answer));
}

/** The page's data, when the server rendered it; undefined for the plain page. */
export function takePageData(doc: Document = document): PageData | undefined {
  const element = doc.getElementById(PAGE_DATA_ID);
  if (!element) return undefined;
  element.remove();
  try {
    const data = JSON.parse(element.textContent ?? '') as Partial<PageData> | null;
    if (!data?.hydration || !Array.isArray(data.answers)) return undefined;
    return { hydration: data.hydration, answers: data.answers };
  } catch {
    return undefined;
  }
}
