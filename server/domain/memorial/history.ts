import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { historyCreateSchema, historyUpdateSchema } from '../../../src/validation/memorial';
import { historyEntries } from '../../db/schema';
import { notFound } from '../../http/errors';
import { isUuid } from './access';
import type { MemorialDeps } from './deps';
import { deleteImage, registerUploadedImage } from './images';
import { assertImageUnused } from './imageUse';
import { viewUrl } from '../../storage/viewUrls';

export interface HistoryEntryView {
  id: string;
  memorialPageId: string;
  occurredOn: string;
  body: string;
  imageName: string | null;
  url: string | null;
  thumbnailUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

type EntryRow = typeof historyEntries.$inferSelect;

async function toView(deps: MemorialDeps, row: EntryRow): Promise<HistoryEntryView> {
  const [url, thumbnailUrl] = await Promise.all([
    viewUrl(deps, row.imageName),
    viewUrl(deps, row.thumbnailName),
  ]);
  return {
    id: row.id,
    memorialPageId: row.memorialPageId,
    occurredOn: row.occurredOn,
    body: row.body,
    imageName: row.imageName,
    url,
    thumbnailUrl,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The timeline, oldest first, in one query. */
export async function listHistory(deps: MemorialDeps, pageId: string): Promise<HistoryEntryView[]> {
  const rows = await deps.db
    .select()
    .from(historyEntries)
    .where(eq(historyEntries.memorialPageId, pageId))
    .orderBy(asc(historyEntries.occurredOn), asc(historyEntries.createdAt));
  return Promise.all(rows.map((row) => toView(deps, row)));
}

async function verifiedImage(deps: MemorialDeps, imageName: string) {
  await assertImageUnused(deps.db, imageName, 'image_name');
  const image = await registerUploadedImage(deps.store, imageName, 'image_name');
  return { imageName: image.imageName, thumbnailName: image.thumbnailName };
}

export async function addHistoryEntry(
  deps: MemorialDeps,
  pageId: string,
  userId: string,
  input: z.infer<typeof historyCreateSchema>,
): Promise<HistoryEntryView> {
  const image = input.image_name ? await verifiedImage(deps, input.image_name) : {};
  const [row] = await deps.db
    .insert(historyEntries)
    .values({
      memorialPageId: pageId,
      occurredOn: input.occurred_on,
      body: input.body,
      ...image,
      createdBy: userId,
    })
    .returning();
  return toView(deps, row!);
}

async function entryOfPage(deps: MemorialDeps, pageId: string, entryId: string) {
  if (!isUuid(entryId)) throw notFound('history entry');
  const [row] = await deps.db
    .select()
    .from(historyEntries)
    .where(and(eq(historyEntries.id, entryId), eq(historyEntries.memorialPageId, pageId)));
  if (!row) throw notFound('history entry');
  return row;
}

/** Changes text, date or photo; `image_name: null` removes the photo. */
export async function updateHistoryEntry(
  deps: MemorialDeps,
  pageId: string,
  entryId: string,
  input: z.infer<typeof historyUpdateSchema>,
): Promise<HistoryEntryView> {
  const current = await entryOfPage(deps, pageId, entryId);
  const photoChanged = input.image_name !== undefined && input.image_name !== current.imageName;
  const image = !photoChanged
    ? {}
    : input.image_name
      ? await verifiedImage(deps, input.image_name)
      : { imageName: null, thumbnailName: null };
  const [row] = await deps.db
    .update(historyEntries)
    .set({
      ...(input.occurred_on !== undefined ? { occurredOn: input.occurred_on } : {}),
      ...(input.body !== undefined ? { body: input.body } : {}),
      ...image,
      updatedAt: deps.clock.now(),
    })
    .where(eq(historyEntries.id, entryId))
    .returning();
  if (photoChanged) await deleteImage(deps.store, current);
  return toView(deps, row!);
}

export async function deleteHistoryEntry(
  deps: MemorialDeps,
  pageId: string,
  entryId: string,
): Promise<void> {
  const row = await entryOfPage(deps, pageId, entryId);
  await deps.db.delete(historyEntries).where(eq(historyEntries.id, entryId));
  await deleteImage(deps.store, row);
}
