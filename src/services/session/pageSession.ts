import { PAGE_SESSION_ID } from '../../../contract/pages/pageHandover';
import type { AuthSession, WireSession } from '../../../contract/sessionLayer';
import { fromWire } from '../api/session';

/**
 * The session the server wrote into the page it served to this session cookie, taken once:
 * the element is removed as it is read, so every later read of the session (tab focus, the
 * token refresh's look at the cookie) asks the session layer. Undefined when the page
 * carries none (a visitor, a cookie that did not open, a later call) or it does not parse.
 */
export function takePageSession(doc: Document = document): AuthSession | null | undefined {
  const element = doc.getElementById(PAGE_SESSION_ID);
  if (!element) return undefined;
  element.remove();
  try {
    return fromWire(JSON.parse(element.textContent ?? '') as WireSession | null);
  } catch {
    return undefined;
  }
}

/**
 * `fetchSession` that answers the page's session the first time, when there is one, and asks
 * the session layer otherwise (docs/client-auth.md, "The session in the page").
 */
export function firstFromPage(
  fetchSession: () => Promise<AuthSession | null>,
  take: () => AuthSession | null | undefined = () => takePageSession(),
): () => Promise<AuthSession | null> {
  return async () => {
    const fromPage = take();
    return fromPage === undefined ? fetchSession() : fromPage;
  };
}
