import { z } from 'zod';
import { pageOf, pageQuery, timestamp, userId } from './common';
import { endpoint, errorBody, noBody, named } from './endpoint';
import { letterClaimSchema, letterInputSchema } from './rules/timecapsule';
import sample from './examples.json';

/**
 * Time-capsule letters' endpoints (docs/timecapsule.md, "API"): three lists (waiting,
 * managed, received), and compose, read, edit, delete and claim. Times are UTC ISO-8601, shown in Japan time.
 */

const TAG = 'Time-capsule letters';
const BASE = '/v1/time_capsule_letter';

const letterId = z.string().meta({ format: 'uuid' });
const calendarDate = z.string().meta({ format: 'date', examples: ['2045-04-01'] });
const deliveryRule = z.enum(['date', 'death', 'death_anniversary', 'date_after_death']);

/** A person's name as the lists show it (family name first on screen). */
export const personName = z.object({ firstName: z.string(), lastName: z.string() });

/**
 * An admin's or the writer's view of a letter before delivery (spec section 3), no body.
 * receiverFirstName/LastName name the first recipient; `receivers` lists them all.
 */
export const letterEnvelope = z
  .object({
    timeCapsuleLetterId: letterId,
    receiverFirstName: z.string(),
    receiverLastName: z.string(),
    receivers: z.array(personName),
    title: z.string(),
    /** When it goes out; null for a death-triggered letter while the writer lives. */
    sendDate: timestamp.nullable(),
    /** null for a dated letter; otherwise the death rule that triggers it. */
    event: deliveryRule.exclude(['date']).nullable(),
    createdAt: timestamp,
    adminFirstNames: z.array(z.string()),
    adminLastNames: z.array(z.string()),
  })
  .meta({
    id: 'LetterEnvelope',
    examples: [
      {
        timeCapsuleLetterId: '3f6b1c2d-8e9a-4b0c-9d1e-2f3a4b5c6d7e',
        receiverFirstName: sample.guestFirstName,
        receiverLastName: sample.lastName,
        receivers: [{ firstName: sample.guestFirstName, lastName: sample.lastName }],
        title: sample.title,
        sendDate: null,
        event: 'death',
        createdAt: '2026-11-25T09:30:00.000Z',
        adminFirstNames: [sample.adminFirstName],
        adminLastNames: [sample.lastName],
      },
    ],
  });

/** A letter the caller wrote that is not delivered yet. */
export const unsentLetter = letterEnvelope
  .extend({ updatedAt: timestamp })
  .meta({ id: 'UnsentLetter' });

export const receivedLetter = z
  .object({
    timeCapsuleLetterId: letterId,
    senderFirstName: z.string(),
    senderLastName: z.string(),
    title: z.string(),
    createdAt: timestamp,
    deliveredAt: timestamp,
    openedAt: timestamp.nullable(),
    /** Delivered well after it was due; the screen says so. */
    late: z.boolean(),
  })
  .meta({ id: 'ReceivedLetter' });

export const letterPhoto = z.object({
  name: z.string(),
  /** A signed GET URL that expires within 15 minutes. */
  url: z.string(),
});

export const recipientStatus = personName.extend({
  kind: z.enum(['member', 'guest']),
  userId: userId.nullable(),
  email: z.string().nullable(),
  deliveredAt: timestamp.nullable(),
  openedAt: timestamp.nullable(),
  late: z.boolean().nullable(),
});

/** As the writer: everything, and per recipient when it was delivered and opened. */
export const writerView = letterEnvelope
  .extend({
    role: z.literal('writer'),
    body: z.string(),
    photos: z.array(letterPhoto),
    rule: deliveryRule,
    delayDays: z.int().nullable(),
    anniversaryYears: z.int().nullable(),
    afterDeathDate: calendarDate.nullable(),
    adminUserIds: z.array(userId),
    recipients: z.array(recipientStatus),
    deliveredAt: timestamp.nullable(),
    updatedAt: timestamp,
  })
  .meta({ id: 'LetterAsWriter' });

/** As a recipient, once it is delivered; reading it marks it opened. */
export const recipientView = z
  .object({
    role: z.literal('recipient'),
    timeCapsuleLetterId: letterId,
    senderFirstName: z.string(),
    senderLastName: z.string(),
    title: z.string(),
    body: z.string(),
    photos: z.array(letterPhoto),
    createdAt: timestamp,
    dueAt: timestamp,
    deliveredAt: timestamp,
    openedAt: timestamp,
    /** Delivered well after it was due; the screen says so. */
    late: z.boolean(),
  })
  .meta({ id: 'LetterAsRecipient' });

/** As an admin: the envelope; the body and photos only once the letter is delivered. */
export const adminView = letterEnvelope
  .extend({
    role: z.literal('admin'),
    deliveredAt: timestamp.nullable(),
    body: z.string().nullable(),
    photos: z.array(letterPhoto),
  })
  .meta({ id: 'LetterAsAdmin' });

export const letterView = z.discriminatedUnion('role', [writerView, recipientView, adminView]);

export type PersonName = z.infer<typeof personName>;
export type LetterEnvelope = z.infer<typeof letterEnvelope>;
export type UnsentLetter = z.infer<typeof unsentLetter>;
export type ReceivedLetter = z.infer<typeof receivedLetter>;
export type LetterPhoto = z.infer<typeof letterPhoto>;
export type RecipientStatus = z.infer<typeof recipientStatus>;
export type WriterView = z.infer<typeof writerView>;
export type RecipientView = z.infer<typeof recipientView>;
export type AdminView = z.infer<typeof adminView>;
export type LetterView = z.infer<typeof letterView>;

const savedLetter = z
  .object({ timeCapsuleLetterId: letterId })
  .meta({ examples: [{ timeCapsuleLetterId: '3f6b1c2d-8e9a-4b0c-9d1e-2f3a4b5c6d7e' }] });

const letterBody = letterInputSchema.meta({
  examples: [
    {
      title: sample.title,
      body: sample.letterBody,
      recipients: [
        {
          kind: 'guest',
          last_name: sample.lastName,
          first_name: sample.guestFirstName,
          email: 'hanako@example.jp',
        },
      ],
      admin_user_ids: [],
      photo_names: [],
      delivery: { rule: 'date_after_death', after_death_date: '2045-04-01' },
    },
  ],
});

/** A malformed id names no letter the caller may know of: 404, like any other unknown id. */
const letterParams = z.object({ letterId: z.string() });

export const timecapsuleEndpoints = named({
  listAdminLetters: endpoint({
    method: 'GET',
    path: `${BASE}/get_admin_letters`,
    summary: 'Letters the caller manages, envelope only',
    tag: TAG,
    caller: 'member',
    responses: { 200: z.array(letterEnvelope) },
  }),
  listReceivedLetters: endpoint({
    method: 'GET',
    path: `${BASE}/get_received_letters`,
    summary: 'Letters delivered to the caller, newest delivery first',
    tag: TAG,
    caller: 'member',
    responses: { 200: z.array(receivedLetter) },
  }),
  listUnsentLetters: endpoint({
    method: 'GET',
    path: `${BASE}/get_unsent_letters`,
    summary: "The caller's letters not yet delivered, last changed first",
    tag: TAG,
    caller: 'member',
    responses: { 200: z.array(unsentLetter) },
  }),
  listAdminLettersPaged: endpoint({
    method: 'GET',
    path: `${BASE}/get_admin_letters/paged`,
    summary:
      'Letters the caller manages a page at a time, in the order of the whole list; 400 `cursor_invalid` for a cursor of another list (ETag; 304 when unchanged)',
    tag: TAG,
    caller: 'member',
    query: pageQuery,
    responses: { 200: pageOf(letterEnvelope), 400: errorBody },
  }),
  listReceivedLettersPaged: endpoint({
    method: 'GET',
    path: `${BASE}/get_received_letters/paged`,
    summary:
      'Letters delivered to the caller a page at a time, newest delivery first; 400 `cursor_invalid` for a cursor of another list (ETag; 304 when unchanged)',
    tag: TAG,
    caller: 'member',
    query: pageQuery,
    responses: { 200: pageOf(receivedLetter), 400: errorBody },
  }),
  listUnsentLettersPaged: endpoint({
    method: 'GET',
    path: `${BASE}/get_unsent_letters/paged`,
    summary:
      "The caller's letters not yet delivered a page at a time, last changed first; 400 `cursor_invalid` for a cursor of another list (ETag; 304 when unchanged)",
    tag: TAG,
    caller: 'member',
    query: pageQuery,
    responses: { 200: pageOf(unsentLetter), 400: errorBody },
  }),
  createLetter: endpoint({
    method: 'POST',
    path: BASE,
    summary:
      "Writes a letter; its recipients (members or not) are mailed when it is delivered. 429 `guest_addresses_per_day` past the day's new non-member addresses",
    tag: TAG,
    caller: 'member',
    body: letterBody,
    responses: { 201: savedLetter },
    rateLimited: true,
  }),
  claimLetter: endpoint({
    method: 'POST',
    path: `${BASE}/claim`,
    summary: 'Binds a letter mailed to a non-member to the member with that address (404 if not)',
    tag: TAG,
    caller: 'member',
    body: letterClaimSchema.meta({ examples: [{ token: 'q2Xb8R0s…' }] }),
    responses: { 200: savedLetter, 404: errorBody },
  }),
  readLetter: endpoint({
    method: 'GET',
    path: `${BASE}/:letterId`,
    summary: "A letter as the caller may read it: the writer's, a recipient's or an admin's view",
    tag: TAG,
    caller: 'member',
    params: letterParams,
    responses: { 200: letterView, 404: errorBody },
  }),
  updateLetter: endpoint({
    method: 'PUT',
    path: `${BASE}/:letterId`,
    summary:
      "Rewrites an unsent letter (409 once it is delivered; 429 past the day's new non-member addresses)",
    tag: TAG,
    caller: 'member',
    params: letterParams,
    body: letterBody,
    responses: { 200: savedLetter, 404: errorBody, 409: errorBody, 429: errorBody },
  }),
  deleteLetter: endpoint({
    method: 'DELETE',
    path: `${BASE}/:letterId`,
    summary: 'Deletes an unsent letter and its photos (409 once it is delivered)',
    tag: TAG,
    caller: 'member',
    params: letterParams,
    responses: { 204: noBody, 404: errorBody, 409: errorBody },
  }),
});
