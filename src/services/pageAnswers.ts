import type { QueryClient } from '@tanstack/react-query';

/**
 * The element the server puts a page's first answers in: a member's (server/routes/memberPage.ts)
 * or a visitor's prerendered memorial page (server/routes/memorialFirstPaint.ts, read by
 * src/snapshot/pageAnswers.ts). One page never carries both.
 */
export const PAGE_ANSWERS_ID = 'shinobu-page-answers';

interface PageAnswers {
  userId: string;
  answers: Record<string, unknown>;
}

let pending: Map<string, unknown> | undefined;

/**
 * The JSON the page carries in its answers element, taken once: the element goes as it is
 * read. Undefined when there is none or it does not parse.
 */
export function takeCarriedJson(doc: Document): unknown {
  const element = doc.getElementById(PAGE_ANSWERS_ID);
  if (!element) return undefined;
  element.remove();
  try {
    return JSON.parse(element.textContent ?? '') as unknown;
  } catch {
    return undefined;
  }
}

function readElement(doc: Document): Map<string, unknown> {
  const carried = takeCarriedJson(doc) as PageAnswers | null | undefined;
  return new Map(Object.entries(carried?.answers ?? {}));
}

/**
 * What the API answered for `path` (`/v1/...`, as the client would ask it, answer as on the
 * wire) when the server wrote it into the page it served to this session cookie, taken once:
 * every later read of it asks the API. The page's answers are for the page's first screen
 * only, so they are all read out of the page on the first call, and the ones its screen does
 * not take go unused. Undefined when the page carries none for `path`.
 */
export function takePageAnswer(path: string, doc: Document = document): unknown {
  pending ??= readElement(doc);
  const answer = pending.get(path);
  pending.delete(path);
  return answer;
}

/** Forgets what was read (tests, which write a page per case). */
export function resetPageAnswers(): void {
  pending = undefined;
}

/**
 * What a route's loader is given when the server draws the page (src/snapshot/prerender.tsx,
 * React Router's `requestContext`): the render's own query client, and the answers the page
 * carries, taken as `takePageAnswer` takes them in the browser. In the browser a loader gets
 * no context and uses the app's.
 */
export interface ServerLoadContext {
  queryClient: QueryClient;
  takePageAnswer: (path: string) => unknown;
}

/** The server's context of a loader's `context`, or undefined in the browser. */
export function serverLoadContext(context: unknown): ServerLoadContext | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  return 'takePageAnswer' in context ? (context as ServerLoadContext) : undefined;
}
