import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/database';
import { queryRows } from '../../server/db/rows';
import type { ObjectStore } from '../../server/storage/objectStore';
import { seedLetters } from '../api/letterDeliverySeed';

/*
 * A store with members, their pages, album photos with their files and letters, written with
 * set-based SQL: for the backup and migration tests and for the bench's timing of them at the
 * size the operations are measured at (so it has no test-runner imports).
 */

export interface StoreSize {
  members: number;
  photos: number;
  letters: number;
}

// One real 1×1 PNG: the copies must carry bytes, not only names.
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PARALLEL_PUTS = 16;

export async function populateStore(db: Db, store: ObjectStore, size: StoreSize): Promise<void> {
  const prefix = randomBytes(4).toString('hex');
  await db.execute(sql`
    with members as (
      insert into users (email, username, last_name, first_name, last_name_kana, first_name_kana,
                         name_reading, status, activated_at)
      select ${prefix} || '-' || n || '@example.jp', ${prefix} || n, '佐藤', '花子' || n, 'さとう',
             'はなこ', 'さとうはなこ佐藤花子' || n, 'active', now()
      from generate_series(1, ${size.members}) as n
      returning id
    ), pages as (
      insert into memorial_pages (owner_user_id, type, last_name, first_name, created_by)
      select id, 'self', '佐藤', '花子', id from members
      returning id, owner_user_id
    )
    insert into memorial_page_members (memorial_page_id, user_id, role)
    select id, owner_user_id, 'admin' from pages`);

  const photos = Array.from({ length: size.photos }, (_, n) => ({
    n,
    image: `album/${randomBytes(12).toString('base64url')}.png`,
    thumbnail: `album/${randomBytes(12).toString('base64url')}.png`,
  }));
  await db.execute(sql`
    with pages as (
      select id, row_number() over (order by id) - 1 as k from memorial_pages
    ), page_count as (select count(*) as total from pages)
    insert into album_photos (memorial_page_id, image_name, thumbnail_name, content_type,
                              byte_size, thumbnail_bytes, width, height, caption, position)
    select pages.id, photo.image, photo.thumbnail, 'image/png', ${PIXEL_PNG.length},
           ${PIXEL_PNG.length}, 1, 1, '写真 ' || photo.n, photo.n
    from json_to_recordset(${JSON.stringify(photos)}::json) as photo(n int, image text, thumbnail text)
    cross join page_count
    join pages on pages.k = photo.n % page_count.total`);
  const names = photos.flatMap((photo) => [photo.image, photo.thumbnail]);
  for (let start = 0; start < names.length; start += PARALLEL_PUTS) {
    await Promise.all(
      names
        .slice(start, start + PARALLEL_PUTS)
        .map((name) => store.put(name, PIXEL_PNG, 'image/png')),
    );
  }

  const [writer, reader] = await queryRows<{ id: string }>(
    db,
    sql`select id from users order by created_at, id limit 2`,
  );
  await seedLetters(db, {
    writerId: writer!.id,
    readerId: reader!.id,
    count: size.letters,
    dueAt: new Date(Date.now() + 365 * 24 * 60 * 60 * 1000),
  });
}

/** Every data table's rows as text (in UTC), sorted: equal for two stores holding the same data. */
export async function tableContents(db: Db, tables: string[]): Promise<Record<string, string[]>> {
  const contents: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = await queryRows<{ row: string }>(
      db,
      sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t`,
    );
    contents[table] = rows.map((row) => row.row).sort();
  }
  return contents;
}

/** Every object of a store with its type and bytes (base64), by name. */
export async function storeContents(store: ObjectStore): Promise<Record<string, string>> {
  const contents: Record<string, string> = {};
  for await (const name of store.list()) {
    const object = await store.get(name);
    contents[name] = `${object!.contentType} ${object!.body.toString('base64')}`;
  }
  return contents;
}
