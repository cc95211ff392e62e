import { LIST_PAGE_SIZE } from '../contract/pages/memorialKeys';

/** The address of the page in the middle of a paged list, reached by following its cursors. */
export async function middlePageUrl(pagedUrl: string, token: string): Promise<string> {
  const pageUrl = (cursor: string | null) =>
    `${pagedUrl}?limit=${LIST_PAGE_SIZE}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
  const headers = { authorization: `Bearer ${token}` };
  const pages: string[] = [pageUrl(null)];
  for (;;) {
    const response = await fetch(pages[pages.length - 1]!, { headers });
    if (!response.ok) throw new Error(`${pagedUrl}: ${response.status} ${await response.text()}`);
    const { nextCursor } = (await response.json()) as { nextCursor: string | null };
    if (nextCursor === null) return pages[Math.floor(pages.length / 2)]!;
    pages.push(pageUrl(nextCursor));
  }
}
