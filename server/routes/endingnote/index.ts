import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SECTION_VISIBILITIES } from '../../../src/contract/rules/endingnote';
import type { AppContext } from '../../context';
import { exportFileName, noteAsHtml, noteAsJson } from '../../domain/endingnote/exportDocument';
import { listReaders, replaceReaders } from '../../domain/endingnote/readers';
import { japaneseTexts } from '../../pages/translations';
import { createSealer } from '../../domain/endingnote/sealing';
import {
  readNote,
  readSection,
  saveSection,
  setSectionVisibility,
  type EndingNoteDeps,
} from '../../domain/endingnote/sections';
import { currentUserId, requireUser } from '../../http/authenticate';
import { notFound } from '../../http/errors';
import { currentPasswordField, noticeOfChange, proveFreshly } from '../accounts/freshProof';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the note's reads need: the database and the sealer of the section values. */
export function noteDeps(ctx: AppContext): EndingNoteDeps {
  return { db: ctx.database.db, sealer: createSealer(ctx.config.dataEncryptionKey) };
}

const noteParams = z.object({ userId: z.string() });
const sectionParams = noteParams.extend({ section: z.string() });

/** The note's owner from the path; an id that cannot exist answers 404 like any unknown note. */
export function ownerOf(params: { userId: string }): string {
  if (!UUID.test(params.userId)) throw notFound('ending note');
  return params.userId.toLowerCase();
}

/** Changes and owner-only reads: anyone but the owner is told the note does not exist. */
function requireOwner(ownerUserId: string, callerUserId: string): void {
  if (ownerUserId !== callerUserId) throw notFound('ending note');
}

/**
 * /v1/endingnote/{userId}/… — the ending note (docs/endingnote.md). Request bodies are never
 * logged (server/http/logging.ts logs method, path and address only).
 */
export async function endingNoteRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = noteDeps(ctx);
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const member = { preHandler: requireUser(ctx) };

  routes.get('/v1/endingnote/:userId', { ...member, schema: { params: noteParams } }, (request) =>
    readNote(deps, ownerOf(request.params), currentUserId(request)),
  );

  routes.get(
    '/v1/endingnote/:userId/sections/:section',
    { ...member, schema: { params: sectionParams } },
    (request) =>
      readSection(deps, ownerOf(request.params), request.params.section, currentUserId(request)),
  );

  routes.put(
    '/v1/endingnote/:userId/sections/:section',
    {
      ...member,
      schema: {
        params: sectionParams,
        body: z.object({
          version: z.int({ error: 'invalid_type' }).min(0, { error: 'invalid_type' }),
          values: z.record(z.string(), z.unknown(), { error: 'invalid_type' }),
        }),
      },
    },
    async (request) => {
      const owner = ownerOf(request.params);
      requireOwner(owner, currentUserId(request));
      return saveSection(deps, owner, request.params.section, request.body, ctx.clock.now());
    },
  );

  routes.put(
    '/v1/endingnote/:userId/sections/:section/visibility',
    {
      ...member,
      schema: {
        params: sectionParams,
        body: z.object({
          visibility: z.enum(SECTION_VISIBILITIES, { error: 'invalid_choice' }),
          ...currentPasswordField,
        }),
      },
    },
    async (request) => {
      const owner = ownerOf(request.params);
      requireOwner(owner, currentUserId(request));
      const proven = await proveFreshly(ctx, request);
      const answer = await setSectionVisibility(
        deps,
        owner,
        request.params.section,
        request.body.visibility,
        ctx.clock.now(),
      );
      await noticeOfChange(ctx, proven, 'note_visibility');
      return answer;
    },
  );

  routes.get(
    '/v1/endingnote/:userId/readers',
    { ...member, schema: { params: noteParams } },
    async (request) => {
      const owner = ownerOf(request.params);
      requireOwner(owner, currentUserId(request));
      return { readers: await listReaders(deps.db, owner) };
    },
  );

  routes.put(
    '/v1/endingnote/:userId/readers',
    {
      ...member,
      schema: {
        params: noteParams,
        body: z.object({
          user_ids: z
            .array(z.string().regex(UUID, { error: 'invalid_user' }), { error: 'invalid_type' })
            .max(50, { error: 'too_many' }),
          ...currentPasswordField,
        }),
      },
    },
    async (request) => {
      const owner = ownerOf(request.params);
      requireOwner(owner, currentUserId(request));
      const proven = await proveFreshly(ctx, request);
      const readers = await replaceReaders(deps.db, owner, request.body.user_ids);
      await noticeOfChange(ctx, proven, 'note_readers');
      return { readers };
    },
  );

  routes.get(
    '/v1/endingnote/:userId/export',
    {
      ...member,
      schema: {
        params: noteParams,
        querystring: z.object({
          format: z.enum(['json', 'html'], { error: 'invalid_choice' }).default('json'),
        }),
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request.params);
      requireOwner(owner, currentUserId(request));
      const note = await readNote(deps, owner, owner);
      const exportedAt = ctx.clock.now();
      const { format } = request.query;
      const body =
        format === 'html'
          ? noteAsHtml(await japaneseTexts(), note, exportedAt)
          : noteAsJson(note, exportedAt);
      return reply
        .header('cache-control', 'no-store')
        .header(
          'content-disposition',
          `attachment; filename="${exportFileName(exportedAt, format)}"`,
        )
        .type(format === 'html' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8')
        .send(body);
    },
  );
}
