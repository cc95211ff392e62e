import { uploadDepsOf } from '../areaDeps';
import type { AppContext } from '../context';
import { sweepUnusedUploads } from '../domain/uploads/uploads';
import { periodic } from './periodic';

export const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Hourly removal of uploads nothing claimed within a day or whose use is gone, with their files. */
export function startUploadSweep(ctx: AppContext, intervalMs = UPLOAD_SWEEP_INTERVAL_MS) {
  return periodic(ctx, 'upload sweep', intervalMs, () => sweepUnusedUploads(uploadDepsOf(ctx)));
}
