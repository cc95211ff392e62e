import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dataExportEndpoints as exports } from '../../contract/dataExport';
import { tokyoToday } from '../../contract/rules/tokyoDate';
import type { AppContext } from '../context';
import {
  createDownloadLink,
  listEntrustedArchives,
  listExports,
  requestExport,
  takeDownload,
} from '../domain/dataExport/requests';
import { keepsakesOfPage, requestKeepsake } from '../domain/dataExport/keepsakes';
import { currentUserId } from '../http/authenticate';
import { endpointRoute } from '../http/endpoints';
import { limitedAs } from '../http/rateLimits';
import { noticeOfChange, proveFreshly } from './accounts/freshProof';

/**
 * /v1/data_exports — a member's archive of all their data (docs/data-export.md) — and the
 * keepsake of a memorial page its admins take (docs/keepsake.md), built and downloaded alike.
 */
export async function dataExportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;

  const requestRoute = endpointRoute(exports.requestExport);
  routes.route({
    ...requestRoute,
    // It sends a mail (the notice), so it counts with the other calls that do.
    config: { ...requestRoute.config, ...limitedAs('mail') },
    handler: async (request, reply) => {
      const proven = await proveFreshly(ctx, request);
      const created = await requestExport(db, ctx.clock, proven.userId);
      await noticeOfChange(ctx, proven, 'data_export');
      return reply.status(202).send(created);
    },
  });

  routes.route({
    ...endpointRoute(exports.listExports),
    handler: async (request) => ({
      exports: await listExports(db, ctx.clock, currentUserId(request)),
    }),
  });

  routes.route({
    ...endpointRoute(exports.listEntrustedArchives),
    handler: async (request) => ({
      archives: await listEntrustedArchives(db, ctx.clock, currentUserId(request)),
    }),
  });

  routes.route({
    ...endpointRoute(exports.createDownloadLink),
    handler: async (request, reply) => {
      const link = await createDownloadLink(
        db,
        ctx.clock,
        currentUserId(request),
        request.params.exportId.toLowerCase(),
        ctx.config.publicUrl,
      );
      return reply.status(201).send(link);
    },
  });

  routes.route({
    ...endpointRoute(exports.requestKeepsake),
    handler: async (request, reply) => {
      const created = await requestKeepsake(
        db,
        ctx.clock,
        request.params.id.toLowerCase(),
        currentUserId(request),
      );
      return reply.status(202).send(created);
    },
  });

  routes.route({
    ...endpointRoute(exports.listKeepsakes),
    handler: async (request) =>
      keepsakesOfPage(db, ctx.clock, request.params.id.toLowerCase(), currentUserId(request)),
  });

  routes.route({
    ...endpointRoute(exports.download),
    handler: async (request, reply) => {
      const archive = await takeDownload(db, ctx.store, ctx.clock, request.query.token);
      const day = tokyoToday(archive.createdAt).replaceAll('-', '');
      return reply
        .header('cache-control', 'no-store')
        .header(
          'content-disposition',
          `attachment; filename="shinobu-${archive.memorialPageId ? 'keepsake' : 'data'}-${day}.zip"`,
        )
        .header('content-length', archive.byteSize)
        .type('application/zip')
        .send(archive.body);
    },
  });
}
