import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths';

/**
 * src/snapshot/start-after-paint.js, which a page with a first paint drawn by the server
 * carries inline (spa.ts `withSnapshot`): it asks for the app's code once that paint is on
 * screen.
 */
export const START_AFTER_PAINT_SOURCE = readFileSync(
  path.join(projectRoot, 'src/snapshot/start-after-paint.js'),
  'utf8',
);

if (/<\/script/i.test(START_AFTER_PAINT_SOURCE)) {
  throw new Error('start-after-paint.js must not contain </script: it is written into the page');
}

/** The Content-Security-Policy source that lets that inline script, and no other, run. */
export const START_AFTER_PAINT_CSP_SOURCE = `'sha256-${createHash('sha256')
  .update(START_AFTER_PAINT_SOURCE)
  .digest('base64')}'`;
