/**
 * Where a member's archive of all their data stands (docs/data-export.md): `withdrawn` after
 * a "this was not me" report, `expired` once the kept days are over and the file is deleted.
 */
export const DATA_EXPORT_STATUSES = [
  'requested',
  'building',
  'ready',
  'failed',
  'withdrawn',
  'expired',
] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

/** Requests a member may make in any 24 hours. */
export const DATA_EXPORTS_PER_DAY = 3;
/** How long a built archive is kept before the job deletes it. */
export const DATA_EXPORT_KEPT_DAYS = 7;
/** How long a download link works (once). */
export const DATA_EXPORT_LINK_MINUTES = 15;
