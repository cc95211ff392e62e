import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { connections, endingNoteReaders, users } from '../../db/schema';
import { invalid } from '../errors';
import type { reader } from '../../../contract/endingnote';
import type { ServedOf } from '../../../contract/endpoint';

/** A designated reader; `connected` is false once the connection has ended. */
export type Reader = ServedOf<typeof reader>;

/** The members the owner designated to read their note (for the whole note), in kana order. */
export async function listReaders(db: Db, ownerUserId: string): Promise<Reader[]> {
  const rows = await db
    .select({
      userId: users.id,
      lastName: users.lastName,
      firstName: users.firstName,
      connectedSince: connections.createdAt,
    })
    .from(endingNoteReaders)
    .innerJoin(users, eq(users.id, endingNoteReaders.readerUserId))
    .leftJoin(
      connections,
      and(
        eq(connections.userId, endingNoteReaders.ownerUserId),
        eq(connections.otherUserId, endingNoteReaders.readerUserId),
      ),
    )
    .where(eq(endingNoteReaders.ownerUserId, ownerUserId))
    .orderBy(asc(users.lastNameKana), asc(users.firstNameKana), asc(users.id));
  return rows.map(({ connectedSince, ...reader }) => ({
    ...reader,
    connected: connectedSince !== null,
  }));
}

/**
 * Replaces the owner's designated readers. Each must be one of the owner's connections
 * (422 `not_connected` on `user_ids.<index>` otherwise).
 */
export async function replaceReaders(
  db: Db,
  ownerUserId: string,
  readerUserIds: string[],
): Promise<Reader[]> {
  const wanted = [...new Set(readerUserIds)];
  const connected =
    wanted.length === 0
      ? []
      : await db
          .select({ userId: connections.otherUserId })
          .from(connections)
          .where(
            and(eq(connections.userId, ownerUserId), inArray(connections.otherUserId, wanted)),
          );
  const connectedIds = new Set(connected.map((row) => row.userId));
  const errors = readerUserIds.flatMap((id, index) =>
    connectedIds.has(id) ? [] : [{ field: `user_ids.${index}`, code: 'not_connected' }],
  );
  if (errors.length > 0) throw invalid(errors);
  await db.transaction(async (tx) => {
    await tx.delete(endingNoteReaders).where(eq(endingNoteReaders.ownerUserId, ownerUserId));
    if (wanted.length > 0) {
      await tx
        .insert(endingNoteReaders)
        .values(wanted.map((readerUserId) => ({ ownerUserId, readerUserId })));
    }
  });
  return listReaders(db, ownerUserId);
}
