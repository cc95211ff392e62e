/**
 * Migration 0003_uploads on a database that already holds uploads: each object some row
 * names gets its owner and its use, the first use winning where one object was named twice.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  albumPhotos,
  historyEntries,
  memorialPageProfiles,
  timeCapsuleLetters,
  uploads,
  users,
} from '../../server/db/schema';
import { eq } from 'drizzle-orm';
import { createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let member: TestMember;
let other: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  member = await createMember(t);
  other = await createMember(t);
});
afterAll(async () => {
  await t.close();
});

/** The part of the migration that records objects stored before uploads were recorded. */
const backfill = () => {
  const script = readFileSync('server/db/migrations/0003_uploads.sql', 'utf8');
  return script.slice(script.indexOf('DO $$'));
};

describe('0003_uploads on existing data', () => {
  it('records every object in use with its owner and its use', async () => {
    const db = t.ctx.database.db;
    const name = (id: string) => `uploads/${id.padEnd(22, 'A')}.jpg`;
    await db
      .update(users)
      .set({ iconName: name('icon') })
      .where(eq(users.id, member.id));
    await db
      .update(memorialPageProfiles)
      .set({ photoName: name('page') })
      .where(eq(memorialPageProfiles.id, member.memorialPageId));
    const [album] = await db
      .insert(albumPhotos)
      .values([
        {
          memorialPageId: member.memorialPageId,
          imageName: name('album'),
          thumbnailName: 'thumbs/albumAAAAAAAAAAAAAAAAA.webp',
          contentType: 'image/png',
          byteSize: 10,
          thumbnailBytes: 5,
          width: 2,
          height: 3,
          position: 0,
          createdBy: member.id,
        },
      ])
      .returning();
    // Another member's album row naming the first member's icon, as was possible before.
    await db.insert(albumPhotos).values({
      memorialPageId: other.memorialPageId,
      imageName: name('otherAlbum'),
      thumbnailName: 'thumbs/otherAlbumAAAAAAAAAAAA.webp',
      contentType: 'image/jpeg',
      byteSize: 1,
      thumbnailBytes: 1,
      width: 1,
      height: 1,
      position: 0,
      createdBy: other.id,
    });
    await db.execute(
      sql`update album_photos set image_name = ${name('icon')} where image_name = ${name('otherAlbum')}`,
    );
    const [entry] = await db
      .insert(historyEntries)
      .values({
        memorialPageId: member.memorialPageId,
        occurredOn: '2000-01-01',
        body: '記録',
        imageName: name('history'),
        thumbnailName: 'thumbs/historyAAAAAAAAAAAAAAA.webp',
        createdBy: member.id,
      })
      .returning();
    const [letter] = await db
      .insert(timeCapsuleLetters)
      .values({
        senderUserId: member.id,
        title: '手紙',
        body: '本文',
        photoNames: [name('letter')],
        rule: 'death',
        delayDays: 0,
      })
      .returning();
    await db.delete(uploads);

    await t.ctx.database.withSession((run) => run(backfill()));

    const rows = await db.select().from(uploads);
    const byName = new Map(rows.map((row) => [row.objectName, row]));
    expect(rows).toHaveLength(5);
    expect(byName.get(name('icon'))).toMatchObject({
      ownerUserId: member.id,
      useKind: 'member_icon',
      useId: member.id,
    });
    expect(byName.get(name('page'))).toMatchObject({
      ownerUserId: member.id,
      useKind: 'page_photo',
      useId: member.memorialPageId,
      thumbnailName: 'thumbs/pageAAAAAAAAAAAAAAAAAA.webp',
    });
    expect(byName.get(name('album'))).toMatchObject({
      ownerUserId: member.id,
      useKind: 'album_photo',
      useId: album!.id,
      contentType: 'image/png',
      thumbnailName: 'thumbs/albumAAAAAAAAAAAAAAAAA.webp',
    });
    expect(byName.get(name('history'))).toMatchObject({
      useKind: 'history_photo',
      useId: entry!.id,
    });
    expect(byName.get(name('letter'))).toMatchObject({
      ownerUserId: member.id,
      useKind: 'letter_photo',
      useId: letter!.id,
    });
  });
});
