import { unwrittenNote } from '../domain/endingnote/sections';
import type { WarmUp } from './pageRenderer';

/**
 * The query parameters that change what the note's page draws: the section shown and the
 * frame's `inflow` (ShellFrame.tsx). Only they go into the render (drawnUrl.ts).
 */
export const NOTE_DRAWN_PARAMS: readonly string[] = ['section', 'inflow'];

/**
 * The note's first answers under the API paths the client asks them by: the note, and for
 * its owner the readers and the connections.
 */
export function noteAnswers(
  noteUserId: string,
  note: unknown,
  ownerReads?: { readers: unknown; connections: unknown },
): Record<string, unknown> {
  const notePath = `/v1/endingnote/${encodeURIComponent(noteUserId)}`;
  if (!ownerReads) return { [notePath]: note };
  return {
    [notePath]: note,
    [`${notePath}/readers`]: { readers: ownerReads.readers },
    '/v1/connection/connections': ownerReads.connections,
  };
}

/**
 * A made-up member's unwritten note, for the renderer's first render (pageRenderer.ts): drawn
 * while nobody waits, so that the first member's note is not the one that loads and runs the
 * screen's code for the first time.
 */
export function noteWarmUp(): WarmUp {
  const userId = '00000000-0000-4000-8000-000000000001';
  return {
    url: `/endingnote/${userId}`,
    answers: [],
    member: {
      user: { id: userId, username: 'warm up', memorialPageId: null, iconUrl: null },
      pageAnswers: noteAnswers(
        userId,
        unwrittenNote({ userId, lastName: 'warm', firstName: 'up' }),
        {
          readers: [],
          connections: { items: [] },
        },
      ),
    },
  };
}
