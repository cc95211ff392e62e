/** The element the server puts a route's first answers in (server/routes/memberPage.ts). */
export const PAGE_ANSWERS_ID = 'shinobu-answers';

interface PageAnswers {
  userId: string;
  answers: Record<string, unknown>;
}

let pending: Map<string, unknown> | undefined;

function readElement(doc: Document): Map<string, unknown> {
  const element = doc.getElementById(PAGE_ANSWERS_ID);
  if (!element) return new Map();
  element.remove();
  try {
    const parsed = JSON.parse(element.textContent ?? '') as PageAnswers | null;
    return new Map(Object.entries(parsed?.answers ?? {}));
  } catch {
    return new Map();
  }
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
