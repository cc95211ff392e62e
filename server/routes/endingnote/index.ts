import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { endingnoteEndpoints } from '../../../contract/endingnote';
import { UUID_PATTERN } from '../../../contract/common';
import type { AppContext } from '../../context';
import { exportFileName, noteAsHtml, noteAsJson } from '../../domain/endingnote/exportDocument';
import { listReaders, replaceReaders } from '../../domain/endingnote/readers';
import { japaneseTexts } from '../../lib/translations';
import {
  readNote,
  readSection,
  saveSection,
  setSectionVisibility,
} from '../../domain/endingnote/sections';
import { endingNoteDepsOf } from '../../areaDeps';
import { currentUserId } from '../../http/authenticate';
import { endpointRoute } from '../../http/endpoints';
import { notFound } from '../../http/errors';
import { noticeOfChange, proveFreshly } from '../accounts/freshProof';

/** The note's owner from the path; an id that cannot exist answers 404 like any unknown note. */
export function ownerOf(params: { userId: string }): string {
  if (!UUID_PATTERN.test(params.userId)) throw notFound('ending note');
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
  const deps = endingNoteDepsOf(ctx);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.route({
    ...endpointRoute(endingnoteEndpoints.readNote),
    handler: (request) => readNote(deps, ownerOf(request.params), currentUserId(request)),
  });

  routes.route({
    ...endpointRoute(endingnoteEndpoints.readSection),
    handler: (request) =>
      readSection(deps, ownerOf(request.params), request.params.section, currentUserId(request)),
  });

  routes.route({
    ...endpointRoute(endingnoteEndpoints.saveSection),
    handler: async (request) => {
      const owner = ownerOf(request.params);
      requireOwner(owner, currentUserId(request));
      return saveSection(deps, owner, request.params.section, request.body, ctx.clock.now());
    },
  });

  routes.route({
    ...endpointRoute(endingnoteEndpoints.setSectionVisibility),
    handler: async (request) => {
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
  });

  routes.route({
    ...endpointRoute(endingnoteEndpoints.listReaders),
    handler: async (request) => {
      const owner = ownerOf(request.params);
      requireOwner(owner, currentUserId(request));
      return { readers: await listReaders(deps.db, owner) };
    },
  });

  routes.route({
    ...endpointRoute(endingnoteEndpoints.replaceReaders),
    handler: async (request) => {
      const owner = ownerOf(request.params);
      requireOwner(owner, currentUserId(request));
      const proven = await proveFreshly(ctx, request);
      const readers = await replaceReaders(deps.db, owner, request.body.user_ids);
      await noticeOfChange(ctx, proven, 'note_readers');
      return { readers };
    },
  });

  routes.route({
    ...endpointRoute(endingnoteEndpoints.exportNote),
    handler: async (request, reply) => {
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
  });
}
