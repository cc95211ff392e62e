import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Session } from '../domain/accounts/sessionCookie';
import { MEMBER_PRELOADS_FILE } from '../paths';
import { sessionKit, sessionWire } from './auth/sessionKit';

/** The id of the element that carries the session in the page (src/services/session/pageSession.ts). */
export const PAGE_SESSION_ID = 'shinobu-session';

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

/**
 * The head markup of a member's page: the session as data, and the member frame's chunks
 * that `page` does not preload already (the route's own).
 */
export function memberHead(session: Session, preloads: readonly string[], page = ''): string {
  const links = preloads
    .filter((file) => !page.includes(`href="${file}"`))
    .map((file) => `<link rel="modulepreload" crossorigin href="${file}">`)
    .join('');
  return `<script type="application/json" id="${PAGE_SESSION_ID}">${jsonForScript(sessionWire(session))}</script>${links}`;
}

/**
 * For a page request carrying a valid session cookie: the markup to add to `page`'s head
 * (docs/client-auth.md, "The session in the page"), so the client neither asks
 * `/api/auth/session` nor waits for the member frame's chunks. Undefined without a cookie or
 * with one that does not open (expired, forged): that page is the everyone-page, and the
 * client asks the session layer as before. The caller must answer it with
 * `cache-control: no-store`: it is this cookie's page only.
 */
export function memberPageHead(
  ctx: AppContext,
  root: string,
): (request: FastifyRequest, page: string) => Promise<string | undefined> {
  const kit = sessionKit(ctx);
  const preloadsFile = path.join(root, MEMBER_PRELOADS_FILE);
  const preloads = existsSync(preloadsFile)
    ? (JSON.parse(readFileSync(preloadsFile, 'utf8')) as string[])
    : [];
  return async (request, page) => {
    if (!request.cookies[kit.cookies.session]) return undefined;
    const session = await kit.readSession(request);
    return session ? memberHead(session, preloads, page) : undefined;
  };
}
