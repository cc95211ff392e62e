import type { AppContext } from '../context';
import { runDataExports, type DataExportJobDeps } from '../domain/dataExport/requests';
import { createSealer } from '../domain/endingnote/sealing';
import { japaneseTexts } from '../pages/translations';
import { periodic } from './periodic';

/** How often the job looks for archives to build and files to delete. */
export const DATA_EXPORT_INTERVAL_MS = 2_000;

export function dataExportDepsOf(ctx: AppContext): DataExportJobDeps {
  return {
    db: ctx.database.db,
    sealer: createSealer(ctx.config.dataEncryptionKey),
    store: ctx.store,
    clock: ctx.clock,
    texts: japaneseTexts,
    publicUrl: ctx.config.publicUrl,
  };
}

/**
 * Builds the archives members asked for (docs/data-export.md) and the keepsakes of memorial
 * pages (docs/keepsake.md), and deletes those past their kept days. Claims use SKIP LOCKED, so any number of instances may run it.
 */
export function startDataExports(ctx: AppContext, intervalMs = DATA_EXPORT_INTERVAL_MS) {
  const deps = dataExportDepsOf(ctx);
  const job = periodic(ctx, 'data exports', intervalMs, async (stopping) => {
    const result = await runDataExports(deps, stopping);
    return result.built + result.failed + result.deleted > 0 ? result : 0;
  });
  return { tick: job.run, stop: job.stop };
}
