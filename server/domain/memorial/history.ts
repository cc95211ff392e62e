import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { historyCreateSchema, historyUpdateSchema } from '../../../contract/rules/memorial';
import type { ServedOf } from '../../../contract/endpoint';
import type { historyEntry, historyEntryView } from '../../../contract/memorial';
import type { Db } from '../../db/database';
import { historyEntries } from '../../db/schema';
import { afterKey, decodeCursor, keyParts, pageFrom } from '../listPages';
import type { MemorialDeps } from './memorialDeps';
import {
  claimItemImage,
  deleteItemOfPage,
  imageUrlsOf,
  itemOfPage,
  releaseItemImage,
} from './pageItems';

/** An entry as the timeline list gives it (the contract's `historyEntry`). */
export type HistoryListEntry = ServedOf<typeof historyEntry>;

/** An entry as the single-entry calls answer it (add, edit). */
export type HistoryEntryView = ServedOf<typeof historyEntryView>;

type EntryRow = typeof historyEntries.$inferSelect;

/** The columns a listed entry is made of: a list reads no more (no timestamps to parse). */
const listColumns = {
  id: historyEntries.id,
  occurredOn: historyEntries.occurredOn,
  body: historyEntries.body,
  imageName: historyEntries.imageName,
  thumbnailName: historyEntries.thumbnailName,
};

type ListRow = Pick<EntryRow, keyof typeof listColumns>;

/** Listed entries, their images' addresses signed together. */
async function toListEntries(deps: MemorialDeps, rows: ListRow[]): Promise<HistoryListEntry[]> {
  const urls = await imageUrlsOf(deps, rows);
  return rows.map((row, index) => ({
    id: row.id,
    occurredOn: row.occurredOn,
    body: row.body,
    imageName: row.imageName,
    ...urls[index]!,
  }));
}

async function toView(deps: MemorialDeps, row: EntryRow): Promise<HistoryEntryView> {
  const entry = (await toListEntries(deps, [row]))[0]!;
  return {
    ...entry,
    memorialPageId: row.memorialPageId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The timeline, oldest first, in one query. */
export async function listHistory(deps: MemorialDeps, pageId: string): Promise<HistoryListEntry[]> {
  const rows = await deps.db
    .select(listColumns)
    .from(historyEntries)
    .where(eq(historyEntries.memorialPageId, pageId))
    .orderBy(asc(historyEntries.occurredOn), asc(historyEntries.createdAt), asc(historyEntries.id));
  return toListEntries(deps, rows);
}

const HISTORY_KEY = [keyParts.date, keyParts.timestamp, keyParts.uuid];

/** One page of the timeline in the same order as the whole list. */
export async function listHistoryPage(
  deps: MemorialDeps,
  pageId: string,
  limit: number,
  cursor: string | undefined,
) {
  const after = decodeCursor('history', pageId, HISTORY_KEY, cursor);
  const rows = await deps.db
    .select({ row: listColumns, createdAt: sql<string>`${historyEntries.createdAt}::text` })
    .from(historyEntries)
    .where(
      and(
        eq(historyEntries.memorialPageId, pageId),
        after
          ? afterKey(
              [
                sql`${historyEntries.occurredOn}`,
                sql`${historyEntries.createdAt}`,
                sql`${historyEntries.id}`,
              ],
              ['date', 'timestamptz', 'uuid'],
              after,
            )
          : undefined,
      ),
    )
    .orderBy(asc(historyEntries.occurredOn), asc(historyEntries.createdAt), asc(historyEntries.id))
    .limit(limit + 1);
  const items = await toListEntries(
    deps,
    rows.slice(0, limit).map(({ row }) => row),
  );
  return pageFrom(
    rows,
    limit,
    'history',
    pageId,
    (r) => [r.row.occurredOn, r.createdAt, r.row.id],
    items,
  );
}

/** The member's own upload claimed for the entry: its names, as an entry keeps them. */
async function entryImage(db: Db, entryId: string, userId: string, imageName: string) {
  const image = await claimItemImage(db, historyEntries, entryId, userId, imageName);
  return { imageName: image.imageName, thumbnailName: image.thumbnailName };
}

export async function addHistoryEntry(
  deps: MemorialDeps,
  pageId: string,
  userId: string,
  input: z.infer<typeof historyCreateSchema>,
): Promise<HistoryEntryView> {
  const id = randomUUID();
  const row = await deps.db.transaction(async (tx) => {
    const image = input.image_name ? await entryImage(tx, id, userId, input.image_name) : {};
    const [inserted] = await tx
      .insert(historyEntries)
      .values({
        id,
        memorialPageId: pageId,
        occurredOn: input.occurred_on,
        body: input.body,
        ...image,
        createdBy: userId,
      })
      .returning();
    return inserted!;
  });
  return toView(deps, row);
}

/**
 * Changes text, date or photo; `image_name: null` removes the photo. A new photo must be the
 * editing member's own upload; the replaced one's files go.
 */
export async function updateHistoryEntry(
  deps: MemorialDeps,
  pageId: string,
  entryId: string,
  userId: string,
  input: z.infer<typeof historyUpdateSchema>,
): Promise<HistoryEntryView> {
  const current = await itemOfPage(deps, historyEntries, pageId, entryId, 'history entry');
  const photoChanged = input.image_name !== undefined && input.image_name !== current.imageName;
  const row = await deps.db.transaction(async (tx) => {
    const image = !photoChanged
      ? {}
      : input.image_name
        ? await entryImage(tx, entryId, userId, input.image_name)
        : { imageName: null, thumbnailName: null };
    const [updated] = await tx
      .update(historyEntries)
      .set({
        ...(input.occurred_on !== undefined ? { occurredOn: input.occurred_on } : {}),
        ...(input.body !== undefined ? { body: input.body } : {}),
        ...image,
        updatedAt: deps.clock.now(),
      })
      .where(eq(historyEntries.id, entryId))
      .returning();
    return updated!;
  });
  if (photoChanged) await releaseItemImage(deps, historyEntries, entryId, current.imageName);
  return toView(deps, row);
}

export async function deleteHistoryEntry(
  deps: MemorialDeps,
  pageId: string,
  entryId: string,
): Promise<void> {
  await deleteItemOfPage(deps, historyEntries, pageId, entryId, 'history entry');
}
