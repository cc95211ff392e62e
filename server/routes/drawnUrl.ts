/**
 * The URL a page is drawn for by the server (pageRenderer.ts): its path and, of its query,
 * only the parameters in `drawnParams`, the ones that change what the page draws. A page asked
 * for with any other query is then the same render, kept once, not one more render each.
 */
export function drawnUrl(url: string, drawnParams: readonly string[]): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const drawn = new URLSearchParams(
    [...new URLSearchParams(url.slice(queryAt))].filter(([name]) => drawnParams.includes(name)),
  ).toString();
  return drawn === '' ? url.slice(0, queryAt) : `${url.slice(0, queryAt)}?${drawn}`;
}
