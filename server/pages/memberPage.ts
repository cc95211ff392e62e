import type { FastifyRequest } from 'fastify';
import { PAGE_SESSION_ID } from '../../contract/pages/pageHandover';
import type { AppContext } from '../context';
import { sessionKit, sessionWire } from '../routes/auth/sessionKit';

/**
 * JSON that cannot end the `<script>` element it sits in, nor start a comment or markup in
 * it: `<`, `>` and `&` as `\u00XX` escapes (still the same JSON), and the two line
 * separators that older parsers took for line ends.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A data element of the page: `value` as JSON under `id`, for the client to read and remove. */
export function jsonScriptElement(id: string, value: unknown): string {
  return `<script type="application/json" id="${id}">${jsonForScript(value)}</script>`;
}

/**
 * For a page request carrying a valid session cookie: the session as data in the page's head
 * (docs/client-auth.md, "The session in the page"), so the client does not ask
 * `/api/auth/session` first. Undefined without a cookie or with one that does not open
 * (expired, forged): that page is the everyone-page, and the client asks the session layer
 * as before. The caller must answer it with `cache-control: no-store`: it is this cookie's
 * page only.
 */
export function memberPageHead(
  ctx: AppContext,
): (request: FastifyRequest) => Promise<string | undefined> {
  const kit = sessionKit(ctx);
  return async (request) => {
    if (!request.cookies[kit.cookies.session]) return undefined;
    const session = await kit.readSession(request);
    if (!session) return undefined;
    return jsonScriptElement(PAGE_SESSION_ID, sessionWire(session));
  };
}
