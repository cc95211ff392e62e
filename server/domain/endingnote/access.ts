import { and, eq } from 'drizzle-orm';
import type { SectionVisibility } from '../../../contract/rules/endingnote';
import type { Db } from '../../db/database';
import { endingNoteReaders } from '../../db/schema';
import { areConnected } from '../connections';
import { isDeathConfirmed } from './deathConfirmation';

/** Who is looking at a note: its owner, or a designated reader who is still a connection. */
export type NoteViewer = { role: 'owner' } | { role: 'reader'; deathConfirmed: boolean };

/**
 * The caller's standing towards a member's note, or undefined when they have none (anonymous,
 * stranger, a connection who is not designated, a reader whose connection has ended).
 */
export async function resolveViewer(
  db: Db,
  ownerUserId: string,
  viewerUserId: string | undefined,
): Promise<NoteViewer | undefined> {
  if (!viewerUserId) return undefined;
  if (viewerUserId === ownerUserId) return { role: 'owner' };
  const designated = await db
    .select({ readerUserId: endingNoteReaders.readerUserId })
    .from(endingNoteReaders)
    .where(
      and(
        eq(endingNoteReaders.ownerUserId, ownerUserId),
        eq(endingNoteReaders.readerUserId, viewerUserId),
      ),
    )
    .limit(1);
  if (designated.length === 0 || !(await areConnected(db, ownerUserId, viewerUserId))) {
    return undefined;
  }
  return { role: 'reader', deathConfirmed: await isDeathConfirmed(db, ownerUserId) };
}

/** The visibility rule, applied to every read of every section. */
export function mayReadSection(viewer: NoteViewer, visibility: SectionVisibility): boolean {
  if (viewer.role === 'owner') return true;
  if (visibility === 'readers_now') return true;
  return visibility === 'readers_after_death' && viewer.deathConfirmed;
}
