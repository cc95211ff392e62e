import { sql, type SQL } from 'drizzle-orm';
import { DomainError } from './errors';

/*
 * Keyset paging for long lists: a page ends at its last item's sort key, and the next page
 * starts after it, so that an insertion between two reads neither repeats nor skips an item
 * as an offset would. The cursor is opaque to clients: base64url JSON naming the list, its
 * owner and the last key, refused when it names another list or owner.
 */

/** A sort key as the cursor keeps it: each column's value as text (timestamps exactly). */
export type SortKey = string[];

interface CursorBody {
  list: string;
  owner: string;
  key: SortKey;
}

const cursorInvalid = () =>
  new DomainError(
    'link_invalid',
    'cursor_invalid',
    '続きを読み込めませんでした。最初から読み込み直してください。',
  );

export function encodeCursor(list: string, owner: string, key: SortKey): string {
  const body: CursorBody = { list, owner, key };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** What a key's parts may be, so that a tampered one is refused before it reaches a query. */
export const keyParts = {
  integer: /^-?\d{1,9}$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  timestamp: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

/** The last key of the page before, or undefined for the first page; 400 for a cursor of another list. */
export function decodeCursor(
  list: string,
  owner: string,
  patterns: RegExp[],
  cursor: string | undefined,
): SortKey | undefined {
  if (cursor === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw cursorInvalid();
  }
  const { list: named, owner: of, key } = (body ?? {}) as Partial<CursorBody>;
  if (
    named !== list ||
    of !== owner ||
    !Array.isArray(key) ||
    key.length !== patterns.length ||
    !key.every((part, index) => typeof part === 'string' && patterns[index]!.test(part))
  ) {
    throw cursorInvalid();
  }
  return key;
}

/**
 * The condition "after this key" in the given order: `(a, b, c) > (x, y, z)` for an ascending
 * order, `<` for a descending one. Each column is compared as its own type (`casts`).
 */
export function afterKey(columns: SQL[], casts: string[], key: SortKey, descending = false): SQL {
  const values = key.map((part, index) => sql`${part}::${sql.raw(casts[index]!)}`);
  return sql`(${sql.join(columns, sql`, `)}) ${sql.raw(descending ? '<' : '>')} (${sql.join(values, sql`, `)})`;
}

/**
 * The condition "after this key" in an order of a time, newest first, then an id ascending
 * (the letter lists'): a row comparison goes one way only, so the two parts are spelled out.
 */
export function afterNewestFirst(time: SQL, id: SQL, key: SortKey): SQL {
  const [at, last] = key;
  return sql`(${time} < ${at}::timestamptz or (${time} = ${at}::timestamptz and ${id} > ${last}::uuid))`;
}

/** The page's items and the next cursor: one row more than the limit is read to know. */
export function pageFrom<Row, Item>(
  rows: Row[],
  limit: number,
  list: string,
  owner: string,
  keyOf: (row: Row) => SortKey,
  items: Item[],
): { items: Item[]; nextCursor: string | null } {
  const more = rows.length > limit;
  const last = rows[Math.min(rows.length, limit) - 1];
  return {
    items: items.slice(0, limit),
    nextCursor: more && last ? encodeCursor(list, owner, keyOf(last)) : null,
  };
}
