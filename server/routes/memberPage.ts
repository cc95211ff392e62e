import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Session } from '../domain/accounts/sessionCookie';
import { listReaders } from '../domain/endingnote/readers';
import { readNote } from '../domain/endingnote/sections';
import { accessTokenUserId } from '../http/authenticate';
import { ApiError } from '../http/errors';
import { PAGE_ANSWERS_ID } from '../../src/services/pageAnswers';
import { MEMBER_PRELOADS_FILE } from '../paths';
import { sessionKit, sessionWire } from './auth/sessionKit';
import { clientRouteParams } from './clientRoutes';
import { drawnUrl } from './drawnUrl';
import { noteDeps, ownerOf } from './endingnote';
import { NOTE_DRAWN_PARAMS, noteAnswers } from './noteFirstPaint';
import type { Snapshot, SnapshotRenderer } from './pageRenderer';
import { connectionsAnswer } from './social/connections';

/** The id of the element that carries the session in the page (src/services/session/pageSession.ts). */
export const PAGE_SESSION_ID = 'shinobu-session';

/** API answers by the path the client would ask (`/v1/...`), for the member it names. */
export interface PageAnswers {
  userId: string;
  answers: Record<string, unknown>;
}

/** The route of the one screen whose first answers a member's page carries. */
const NOTE_ROUTE = '/endingnote/:userId';

/**
 * The answers the screen of `pathname` asks for first, read for the member `userId` with the
 * very rules of their API routes (a read the API would refuse is left out, and the client asks
 * it as before). Only /endingnote/{userId} has any (issue 6, time to interactive): the note,
 * and for its owner the readers and the connections, which the screen would otherwise ask
 * for one round trip after its code arrived.
 */
export async function routeAnswers(
  ctx: AppContext,
  pathname: string,
  userId: string,
): Promise<Record<string, unknown>> {
  const param = clientRouteParams(pathname, NOTE_ROUTE)?.userId;
  if (param === undefined) return {};
  try {
    const owner = ownerOf({ userId: param });
    // The owner's own reads go out beside the note's (the page waits for all of them).
    const ownerReads =
      owner === userId
        ? Promise.all([listReaders(ctx.database.db, owner), connectionsAnswer(ctx, userId)])
        : undefined;
    ownerReads?.catch(() => undefined);
    const note = await readNote(noteDeps(ctx), owner, userId);
    if (note.viewer !== 'owner' || !ownerReads) return noteAnswers(param, note);
    const [readers, connections] = await ownerReads;
    return noteAnswers(param, note, { readers, connections });
  } catch (error) {
    // Refused (no such note, not a reader): the client's own call is answered the same.
    if (error instanceof ApiError) return {};
    throw error;
  }
}

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
 * The head markup of a member's page: the session as data, and the member frame's chunks
 * that `page` does not preload already (the route's own).
 */
export function memberHead(session: Session, preloads: readonly string[], page = ''): string {
  const links = preloads
    .filter((file) => !page.includes(`href="${file}"`))
    .map((file) => `<link rel="modulepreload" crossorigin href="${file}">`)
    .join('');
  return `${jsonScriptElement(PAGE_SESSION_ID, sessionWire(session))}${links}`;
}

/** The element of a route's first answers; nothing when there are none. */
export function answersElement(answers: PageAnswers): string {
  if (Object.keys(answers.answers).length === 0) return '';
  return jsonScriptElement(PAGE_ANSWERS_ID, answers);
}

/** What a member's page adds to the built page. */
export interface MemberPageParts {
  /** For the head, at once: the session and the member frame's preloads. */
  head: string;
  /**
   * For the end of the body, once read: the route's first answers (`answersElement`, or
   * nothing). Never rejects: a read that fails leaves them out.
   */
  bodyEnd?: Promise<string>;
  /**
   * The page's first paint, drawn from those answers for this member, or undefined when there
   * is none (no renderer, no answers, a render that failed). Never rejects. The page waits
   * for it: drawn, it is the page's first paint (spa.ts).
   */
  firstPaint?: Promise<Snapshot | undefined>;
}

/**
 * For a page request carrying a valid session cookie: the markup to add to `page`
 * (docs/client-auth.md, "The session in the page"), so the client neither asks
 * `/api/auth/session` nor waits for the member frame's chunks, nor, on a route that has them
 * (`routeAnswers`), for its screen's first reads. Those are read only when the access token
 * in the session opens as the API's bearer check would open it, as that token's member, and
 * they come last (`bodyEnd`), so that the head and its preloads are not held up by the reads.
 * Undefined without a cookie or with one that does not open (expired, forged): that page is
 * the everyone-page, and the client asks the session layer as before. The caller must answer
 * it with `cache-control: no-store`: it is this cookie's page only.
 */
export function memberPageHead(
  ctx: AppContext,
  root: string,
  renderer: () => Promise<SnapshotRenderer | undefined> = async () => undefined,
): (request: FastifyRequest, page: string) => Promise<MemberPageParts | undefined> {
  const kit = sessionKit(ctx);
  const preloadsFile = path.join(root, MEMBER_PRELOADS_FILE);
  const preloads = existsSync(preloadsFile)
    ? (JSON.parse(readFileSync(preloadsFile, 'utf8')) as string[])
    : [];
  const answersFor = async (session: Session, pathname: string): Promise<PageAnswers> => {
    const userId = await accessTokenUserId(ctx, session.accessToken);
    if (!userId) return { userId: '', answers: {} };
    return { userId, answers: await routeAnswers(ctx, pathname, userId) };
  };
  return async (request, page) => {
    if (!request.cookies[kit.cookies.session]) return undefined;
    const session = await kit.readSession(request);
    if (!session) return undefined;
    const head = memberHead(session, preloads, page);
    const pathname = request.url.split('?')[0]!;
    if (request.method !== 'GET' || !clientRouteParams(pathname, NOTE_ROUTE)) return { head };
    const read = answersFor(session, pathname).catch((error: unknown) => {
      request.log.error({ err: error }, "a member page's first answers could not be read");
      return undefined;
    });
    const bodyEnd = read.then((answers) => (answers ? answersElement(answers) : ''));
    // Drawn for the session's member from the answers the page carries: the screen's first
    // render in the browser draws the same (issue 6, docs/endingnote.md).
    const firstPaint = read
      .then(async (answers) => {
        if (!answers || Object.keys(answers.answers).length === 0) return undefined;
        const render = await renderer();
        return render?.(drawnUrl(request.url, NOTE_DRAWN_PARAMS), [], {
          user: session.user,
          pageAnswers: answers.answers,
        });
      })
      .catch((error: unknown) => {
        request.log.error({ err: error }, "the first paint of a member's page failed");
        return undefined;
      });
    return { head, bodyEnd, firstPaint };
  };
}
