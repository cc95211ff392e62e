/**
 * A value made on its first use rather than when its module is evaluated: an `Intl` formatter
 * loads locale and time-zone data when made, milliseconds on a slow phone that the start-up of
 * a screen which never formats should not pay (docs/app-shell.md, "Start-up work").
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
