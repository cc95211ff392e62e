/**
 * The answers a page was prerendered with at request time (docs/app-shell.md, "First paint of
 * a public memorial page"). The server reads them through the domain layer as the API would
 * answer a visitor, renders the page from them and puts them into the page as JSON; the client
 * seeds its query cache with them, so that the screen draws the same page on its first render
 * (the hand-over) and does not ask the API again.
 */
import type { QueryClient } from '@tanstack/react-query';
import { toCamelCase } from '../services/http/casing';
import { takeCarriedJson } from '../services/pageAnswers';

/** One read's answer as the API sends it, under the query key the screen reads it with. */
export interface SeededAnswer {
  key: readonly unknown[];
  answer: unknown;
}

/** What the page carries: the path it was rendered for, and the answers. */
export interface PageAnswers {
  path: string;
  answers: SeededAnswer[];
}

/**
 * Puts the answers into `client`'s cache as the app's HTTP client would have read them
 * (camelCase, services/http/casing.ts), fresh as of now.
 */
export function seedQueryCache(client: QueryClient, answers: readonly SeededAnswer[]): void {
  for (const { key, answer } of answers) client.setQueryData(key, toCamelCase(answer));
}

/**
 * The answers the page carries for `pathname`, taken once: the element goes as it is read,
 * so a later visit of the same route asks the API. Undefined when the page has none (a
 * member's page, a page a visitor may not see, a later navigation), when they were rendered
 * for another path, or when they do not parse. Never anything on the server.
 */
export function takePageAnswers(
  pathname: string,
  doc: Document | undefined = typeof document === 'undefined' ? undefined : document,
): SeededAnswer[] | undefined {
  if (!doc) return undefined;
  const carried = takeCarriedJson(doc) as Partial<PageAnswers> | null | undefined;
  if (carried?.path !== pathname || !Array.isArray(carried.answers)) return undefined;
  return carried.answers.filter(
    (seeded): seeded is SeededAnswer =>
      typeof seeded === 'object' && seeded !== null && Array.isArray(seeded.key),
  );
}
