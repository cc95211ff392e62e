/**
 * The modules the app frame loads lazily as soon as a signed-in member is shown (plain data,
 * no import: the build reads it too). `vite.config.ts` writes their chunks, and what those
 * import, into `member-preloads.json`; the server names them as module preloads in a page
 * served to a valid session cookie (server/pages/memberPage.ts), so they download with the
 * entry instead of after the session is known. Keep it in step with the `import()` calls of
 * `lazyMemberParts.ts` and `ShellFrame.tsx`. The HTTP client (`services/http/lazy.ts`) is left
 * out on purpose: the frame's checks load it after the first render, which needs no call.
 */
export const memberFrameModules: readonly string[] = [
  'src/components/shell/memberParts.tsx',
  'src/components/deathDetection/DeathDetectionModals.tsx',
];
