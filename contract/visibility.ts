import { z } from 'zod';
import { timestamp } from './common';
import { endpoint, named } from './endpoint';
import { reader } from './endingnote';
import { SECTION_CODES, SECTION_VISIBILITIES } from './rules/endingnote';
import { PRIVACY_SETTINGS } from './rules/memorial';
import { letterEnvelope } from './timecapsule';

const TAG = 'Visibility';

/** A memorial page the member is an admin of, with who may see it. */
const visiblePage = z.object({
  memorialPageId: z.uuid(),
  type: z.enum(['self', 'other', 'pet']),
  /** The member's own page (a page for oneself that someone else keeps is not). */
  own: z.boolean(),
  lastName: z.string(),
  firstName: z.string(),
  privacy: z.enum(PRIVACY_SETTINGS),
  searchable: z.boolean(),
});

/** A letter the member wrote: its envelope and whether it has gone out. */
const visibleLetter = letterEnvelope.extend({ deliveredAt: timestamp.nullable() });

export const visibilityOverview = z
  .object({
    /** Whether user search lists the member. */
    searchable: z.boolean(),
    pages: z.array(visiblePage),
    endingNote: z.object({
      /** Every section, in the note's order; one never saved is `private`. */
      sections: z.array(
        z.object({ section: z.enum(SECTION_CODES), visibility: z.enum(SECTION_VISIBILITIES) }),
      ),
      /** The designated readers; one whose connection ended reads nothing. */
      readers: z.array(reader),
    }),
    /** Letters not delivered yet first (by when they go), then the delivered ones. */
    letters: z.array(visibleLetter),
  })
  .meta({ id: 'VisibilityOverview' });

export const visibilityEndpoints = named({
  readVisibility: endpoint({
    method: 'GET',
    path: '/v1/mypage/visibility',
    summary:
      'Who can see each of the member’s pages, ending-note sections and letters now, and after their death',
    tag: TAG,
    caller: 'member',
    responses: { 200: visibilityOverview },
  }),
});
