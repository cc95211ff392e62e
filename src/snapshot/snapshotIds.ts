/** The elements of a page with the prerendered /login (server/routes/spa.ts, handOver.ts). */
export const SNAPSHOT_ID = 'snapshot';
export const SNAPSHOT_STYLE_ID = 'snapshot-style';
export const APP_ROOT_ID = 'root';

/** The longest a snapshot may stay when the app never draws a screen (e.g. a failed load). */
export const SNAPSHOT_MAX_MS = 10_000;
