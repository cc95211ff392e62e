import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ServedOf } from '../../../contract/endpoint';
import type { albumPhoto, albumPhotoView, memorialEndpoints } from '../../../contract/memorial';
import type {
  albumPhotoCreateSchema,
  albumPhotoUpdateSchema,
} from '../../../contract/rules/memorial';
import { albumPhotos } from '../../db/schema';
import { invalid } from '../errors';
import { afterKey, decodeCursor, keyParts, pageFrom } from '../listPages';
import type { MemorialDeps } from './memorialDeps';
import { claimItemImage, deleteItemOfPage, imageUrlsOf, itemOfPage } from './pageItems';

/** A photo as the album list gives it (the contract's `albumPhoto`). */
export type AlbumListPhoto = ServedOf<typeof albumPhoto>;

/** A photo as the single-photo calls answer it (add, edit). */
export type AlbumPhotoView = ServedOf<typeof albumPhotoView>;

type PhotoRow = typeof albumPhotos.$inferSelect;

/** The columns a listed photo is made of: a list reads no more (no timestamps to parse). */
const listColumns = {
  id: albumPhotos.id,
  imageName: albumPhotos.imageName,
  thumbnailName: albumPhotos.thumbnailName,
  caption: albumPhotos.caption,
  takenOn: albumPhotos.takenOn,
  position: albumPhotos.position,
  width: albumPhotos.width,
  height: albumPhotos.height,
  thumbnailBytes: albumPhotos.thumbnailBytes,
};

type ListRow = Pick<PhotoRow, keyof typeof listColumns>;

/** Listed photos, their addresses signed together. */
async function toListPhotos(deps: MemorialDeps, rows: ListRow[]): Promise<AlbumListPhoto[]> {
  const urls = await imageUrlsOf(deps, rows);
  return rows.map((row, index) => ({
    id: row.id,
    imageName: row.imageName,
    url: urls[index]!.url!,
    thumbnailUrl: urls[index]!.thumbnailUrl!,
    caption: row.caption,
    takenOn: row.takenOn,
    position: row.position,
    width: row.width,
    height: row.height,
    thumbnailBytes: row.thumbnailBytes,
  }));
}

async function toView(deps: MemorialDeps, row: PhotoRow): Promise<AlbumPhotoView> {
  const photo = (await toListPhotos(deps, [row]))[0]!;
  return { ...photo, memorialPageId: row.memorialPageId, createdAt: row.createdAt };
}

/** The album in display order, one query, each photo with signed URLs. */
export async function listAlbum(deps: MemorialDeps, pageId: string): Promise<AlbumListPhoto[]> {
  const rows = await deps.db
    .select(listColumns)
    .from(albumPhotos)
    .where(eq(albumPhotos.memorialPageId, pageId))
    .orderBy(asc(albumPhotos.position), asc(albumPhotos.createdAt), asc(albumPhotos.id));
  return toListPhotos(deps, rows);
}

const ALBUM_KEY = [keyParts.integer, keyParts.timestamp, keyParts.uuid];

/** One page of the album in the same order as the whole list. */
export async function listAlbumPage(
  deps: MemorialDeps,
  pageId: string,
  limit: number,
  cursor: string | undefined,
) {
  const after = decodeCursor('album', pageId, ALBUM_KEY, cursor);
  const rows = await deps.db
    .select({ row: listColumns, createdAt: sql<string>`${albumPhotos.createdAt}::text` })
    .from(albumPhotos)
    .where(
      and(
        eq(albumPhotos.memorialPageId, pageId),
        after
          ? afterKey(
              [sql`${albumPhotos.position}`, sql`${albumPhotos.createdAt}`, sql`${albumPhotos.id}`],
              ['integer', 'timestamptz', 'uuid'],
              after,
            )
          : undefined,
      ),
    )
    .orderBy(asc(albumPhotos.position), asc(albumPhotos.createdAt), asc(albumPhotos.id))
    .limit(limit + 1);
  const items = await toListPhotos(
    deps,
    rows.slice(0, limit).map(({ row }) => row),
  );
  return pageFrom(
    rows,
    limit,
    'album',
    pageId,
    (r) => [String(r.row.position), r.createdAt, r.row.id],
    items,
  );
}

/** Adds the member's own checked upload at the end of the album. */
export async function addPhoto(
  deps: MemorialDeps,
  pageId: string,
  userId: string,
  input: z.infer<typeof albumPhotoCreateSchema>,
): Promise<AlbumPhotoView> {
  const id = randomUUID();
  const row = await deps.db.transaction(async (tx) => {
    const image = await claimItemImage(tx, albumPhotos, id, userId, input.image_name);
    const [inserted] = await tx
      .insert(albumPhotos)
      .values({
        id,
        memorialPageId: pageId,
        ...image,
        caption: input.caption,
        takenOn: input.taken_on ?? null,
        position: sql`(SELECT coalesce(max(position), -1) + 1 FROM album_photos WHERE memorial_page_id = ${pageId})`,
        createdBy: userId,
      })
      .returning();
    return inserted!;
  });
  return toView(deps, row);
}

export async function updatePhoto(
  deps: MemorialDeps,
  pageId: string,
  photoId: string,
  input: z.infer<typeof albumPhotoUpdateSchema>,
): Promise<AlbumPhotoView> {
  await itemOfPage(deps, albumPhotos, pageId, photoId, 'album photo');
  const [row] = await deps.db
    .update(albumPhotos)
    .set({
      ...(input.caption !== undefined ? { caption: input.caption } : {}),
      ...(input.taken_on !== undefined ? { takenOn: input.taken_on } : {}),
    })
    .where(eq(albumPhotos.id, photoId))
    .returning();
  return toView(deps, row!);
}

/** Deletes the photo and its files. */
export async function deletePhoto(
  deps: MemorialDeps,
  pageId: string,
  photoId: string,
): Promise<void> {
  await deleteItemOfPage(deps, albumPhotos, pageId, photoId, 'album photo');
}

/**
 * Puts the album in the given order. The list must name every photo of the page exactly
 * once, so that a reorder from a stale screen cannot silently drop or duplicate places.
 */
export async function reorderAlbum(
  deps: MemorialDeps,
  pageId: string,
  input: z.infer<(typeof memorialEndpoints)['reorderAlbum']['body']>,
): Promise<void> {
  const wanted = input.photo_ids;
  await deps.db.transaction(async (tx) => {
    const existing = await tx
      .select({ id: albumPhotos.id })
      .from(albumPhotos)
      .where(eq(albumPhotos.memorialPageId, pageId))
      .for('update');
    const ids = new Set(existing.map((row) => row.id));
    const sameSet =
      new Set(wanted).size === wanted.length &&
      wanted.length === ids.size &&
      wanted.every((id) => ids.has(id));
    if (!sameSet) {
      throw invalid([{ field: 'photo_ids', code: 'album_order_mismatch' }]);
    }
    if (wanted.length === 0) return;
    // One UPDATE from a VALUES list: the new position of each photo is its index.
    const positions = sql.join(
      wanted.map((id, index) => sql`(${id}::uuid, ${index}::int)`),
      sql`, `,
    );
    await tx.execute(
      sql`UPDATE album_photos SET position = v.position FROM (VALUES ${positions}) AS v(id, position)
          WHERE album_photos.id = v.id AND album_photos.memorial_page_id = ${pageId}`,
    );
  });
}
