import { z } from 'zod';
import { currentPasswordField, memberName, timestamp, UUID_PATTERN } from './common';
import { endpoint, errorBody, fileBody, named } from './endpoint';
import { SECTION_CODES, SECTION_VISIBILITIES } from './rules/endingnote';

/** The ending note's endpoints (docs/endingnote.md, "API"). */

const TAG = 'Ending note';

const fieldValue = z.union([z.string(), z.boolean(), z.array(z.string())]);

export const sectionView = z
  .object({
    section: z.enum(SECTION_CODES),
    visibility: z.enum(SECTION_VISIBILITIES),
    /** 0: never saved. */
    version: z.int().min(0),
    updatedAt: timestamp.nullable(),
    /** Keyed by field code (contract/rules/endingnote.ts), snake_case by definition. */
    values: z.record(z.string(), fieldValue),
    completion: z.object({ filled: z.int(), total: z.int() }),
  })
  .meta({
    id: 'EndingNoteSection',
    examples: [
      {
        section: 'self',
        visibility: 'private',
        version: 3,
        updatedAt: '2026-11-25T09:30:00.000Z',
        values: { full_name: 'Yamada Taro' },
        completion: { filled: 1, total: 6 },
      },
    ],
  });

export const noteView = z
  .object({
    userId: z.string(),
    owner: memberName,
    viewer: z.enum(['owner', 'reader']),
    /** The sections the caller may read, in the note's order. */
    sections: z.array(sectionView),
    /** Names of the members chosen in the sections' user-select fields. */
    members: z.array(memberName),
  })
  .meta({ id: 'EndingNote' });

export const reader = memberName
  .extend({
    /** False once the connection has ended: the reader then reads nothing until reconnected. */
    connected: z.boolean(),
  })
  .meta({ id: 'EndingNoteReader' });

const readers = z.object({ readers: z.array(reader) });

const noteParams = z.object({ userId: z.string() });
const sectionParams = noteParams.extend({ section: z.string() });

export const endingnoteEndpoints = named({
  readNote: endpoint({
    method: 'GET',
    path: '/v1/endingnote/:userId',
    summary: 'The note as the caller may read it: the owner all of it, a reader what is shared',
    tag: TAG,
    caller: 'member',
    params: noteParams,
    responses: { 200: noteView, 404: errorBody },
  }),
  readSection: endpoint({
    method: 'GET',
    path: '/v1/endingnote/:userId/sections/:section',
    summary: 'One section of the note',
    tag: TAG,
    caller: 'member',
    params: sectionParams,
    responses: { 200: sectionView, 404: errorBody },
  }),
  saveSection: endpoint({
    method: 'PUT',
    path: '/v1/endingnote/:userId/sections/:section',
    summary: 'Saves one section; `version` is the one read (409 when it was saved since)',
    tag: TAG,
    caller: 'member',
    params: sectionParams,
    body: z
      .object({
        version: z.int({ error: 'invalid_type' }).min(0, { error: 'invalid_type' }),
        values: z.record(z.string(), z.unknown(), { error: 'invalid_type' }),
      })
      .meta({ examples: [{ version: 2, values: { full_name: 'Yamada Taro' } }] }),
    responses: { 200: sectionView, 404: errorBody, 409: errorBody },
  }),
  setSectionVisibility: endpoint({
    method: 'PUT',
    path: '/v1/endingnote/:userId/sections/:section/visibility',
    summary: 'Who may read one section (a sensitive change: fresh proof)',
    tag: TAG,
    caller: 'member',
    params: sectionParams,
    body: z
      .object({
        visibility: z.enum(SECTION_VISIBILITIES, { error: 'invalid_choice' }),
        ...currentPasswordField,
      })
      .meta({ examples: [{ visibility: 'readers_after_death', current_password: '••••••••' }] }),
    responses: { 200: sectionView, 404: errorBody },
    freshProof: true,
  }),
  listReaders: endpoint({
    method: 'GET',
    path: '/v1/endingnote/:userId/readers',
    summary: 'The members the owner chose to read the note',
    tag: TAG,
    caller: 'member',
    params: noteParams,
    responses: { 200: readers, 404: errorBody },
  }),
  replaceReaders: endpoint({
    method: 'PUT',
    path: '/v1/endingnote/:userId/readers',
    summary: "Replaces the note's readers, each a connection (a sensitive change: fresh proof)",
    tag: TAG,
    caller: 'member',
    params: noteParams,
    body: z
      .object({
        user_ids: z
          .array(z.string().regex(UUID_PATTERN, { error: 'invalid_user' }), {
            error: 'invalid_type',
          })
          .max(50, { error: 'too_many' }),
        ...currentPasswordField,
      })
      .meta({
        examples: [
          { user_ids: ['0b9f3c1e-5d2a-4c77-9a51-3f0e8d2b6a14'], current_password: '••••••••' },
        ],
      }),
    responses: { 200: readers, 404: errorBody },
    freshProof: true,
  }),
  exportNote: endpoint({
    method: 'GET',
    path: '/v1/endingnote/:userId/export',
    summary: 'The whole note as a file to keep (JSON) or print (HTML)',
    tag: TAG,
    caller: 'member',
    params: noteParams,
    query: z.object({
      format: z.enum(['json', 'html'], { error: 'invalid_choice' }).default('json'),
    }),
    responses: {
      200: fileBody('The note as a file: JSON to keep, HTML to print (by `format`)', [
        'application/json',
        'text/html',
      ]),
      404: errorBody,
    },
  }),
});
