import { ensureSpaBuild } from '../server/pages/build';

/**
 * Builds the SPA once, before any worker starts its server (they start with
 * SHINOBU_SKIP_BUILD and serve this build). Skipped when dist/ is newer than its sources.
 */
export default async function globalSetup(): Promise<void> {
  await ensureSpaBuild((line) => process.stderr.write(`e2e: ${line}\n`));
}
