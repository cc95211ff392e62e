import { unwrittenNote } from '../domain/endingnote/sections';
import type { WarmUp } from './pageRenderer';

/**
 * The query parameters that change what the note's page draws: the section shown and the
 * frame's `inflow` (ShellFrame.tsx). Only they go into the render (drawnUrl.ts).
 */
export const NOTE_DRAWN_PARAMS: readonly string[] = ['section', 'inflow'];

/**
 * A made-up member's unwritten note, for the renderer's first render (pageRenderer.ts): drawn
 * while nobody waits, so that the first member's note is not the one that loads and runs the
 * screen's code for the first time.
 */
export function noteWarmUp(): WarmUp {
  const userId = '00000000-0000-4000-8000-000000000001';
  const notePath = `/v1/endingnote/${userId}`;
  return {
    url: `/endingnote/${userId}`,
    answers: [],
    member: {
      user: { id: userId, username: 'warm up', memorialPageId: null, iconUrl: null },
      pageAnswers: {
        [notePath]: unwrittenNote({ userId, lastName: 'warm', firstName: 'up' }),
        [`${notePath}/readers`]: { readers: [] },
        '/v1/connection/connections': { items: [] },
      },
    },
  };
}
