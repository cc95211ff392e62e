import { LIST_PAGE_SIZE } from '../../../contract/pages/memorialKeys';

/** A page of a long list: its items and the cursor of the next, null on the last. */
export interface ListPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** The query of a paged read: the shared page size, and the cursor after the first page. */
export const pageQueryOf = (cursor: string | null) => ({
  limit: LIST_PAGE_SIZE,
  ...(cursor === null ? {} : { cursor }),
});
