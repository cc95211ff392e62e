import { z } from 'zod';
import { pageOf, pageQuery, timestamp, userId } from './common';
import { endpoint, errorBody, fileBody, noBody, named } from './endpoint';
import {
  albumPhotoCreateSchema,
  albumPhotoUpdateSchema,
  ALBUM_MAX_PHOTOS,
  condolenceCreateSchema,
  createPageSchema,
  type DateOptions,
  historyCreateSchema,
  historyUpdateSchema,
  OBJECT_NAME_MAX_LENGTH,
  PRIVACY_SETTINGS,
  updatePageSchema,
} from './rules/memorial';
import { requiredText } from './rules/account';
import sample from './examples.json';

/** The memorial area's endpoints (docs/memorial.md, "API calls"). */

const PAGES = 'Memorial pages';
const ALBUM = 'Album';
const HISTORY = 'History';
const MOURNING = 'Mourning';
const INVITATIONS = 'Invitations';
const FILES = 'Files';

const pageId = z
  .string()
  .meta({ format: 'uuid', examples: ['5a0c2f6e-1b7d-4e39-8c2a-9d4f1e6b3a70'] });
const calendarDate = z.string().meta({ format: 'date', examples: ['2024-03-14'] });
/** A signed URL to read a file, valid for a while (server/storage/viewUrls.ts). */
const fileUrl = z.string().meta({ format: 'uri' });

/** Ids are checked by the domain: a malformed id is simply not found. */
export const pageParams = z.object({ id: z.string().max(100) });
const photoParams = pageParams.extend({ photoId: z.string().max(100) });
const entryParams = pageParams.extend({ entryId: z.string().max(100) });
const condolenceParams = pageParams.extend({ condolenceId: z.string().max(100) });

export const anniversary = z
  .object({
    /** `shonanoka` … `sanjusankaiki`; its label is the Fluent id `anniversary-<code>`. */
    code: z.string(),
    date: calendarDate,
  })
  .meta({ id: 'Anniversary' });

export const memorialPage = z
  .object({
    id: pageId,
    memorialPageId: pageId,
    ownerUserId: userId.nullable(),
    type: z.enum(['self', 'other', 'pet']),
    lastName: z.string(),
    firstName: z.string(),
    lastNameKana: z.string(),
    firstNameKana: z.string(),
    photoName: z.string().nullable(),
    photoUrl: fileUrl.nullable(),
    photoThumbnailUrl: fileUrl.nullable(),
    birthDate: calendarDate.nullable(),
    deathDate: calendarDate.nullable(),
    animalKind: z.string().nullable(),
    privacy: z.enum(PRIVACY_SETTINGS),
    searchable: z.boolean(),
    /** Set once the member's confirmed death was released: the page's mourning view. */
    mourningSince: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    /** The caller's membership of the page, if any. */
    role: z.enum(['admin', 'viewer']).nullable(),
    /** Admins edit; everyone else who may see the page views. */
    mode: z.enum(['admin_edit', 'admin_view']),
    anniversaries: z.array(anniversary),
    flowerCount: z.int().min(0),
  })
  .meta({
    id: 'MemorialPage',
    examples: [
      {
        id: '5a0c2f6e-1b7d-4e39-8c2a-9d4f1e6b3a70',
        memorialPageId: '5a0c2f6e-1b7d-4e39-8c2a-9d4f1e6b3a70',
        ownerUserId: null,
        type: 'pet',
        lastName: '',
        firstName: sample.petName,
        lastNameKana: '',
        firstNameKana: sample.petNameKana,
        photoName: null,
        photoUrl: null,
        photoThumbnailUrl: null,
        birthDate: '2012-04-01',
        deathDate: '2024-03-14',
        animalKind: sample.animalKind,
        privacy: 'connections',
        searchable: false,
        mourningSince: null,
        createdAt: '2026-11-25T09:30:00.000Z',
        updatedAt: '2026-11-25T09:30:00.000Z',
        role: 'admin',
        mode: 'admin_edit',
        anniversaries: [{ code: 'shonanoka', date: '2024-03-20' }],
        flowerCount: 3,
      },
    ],
  });

/** A photo as the album list gives it. */
export const albumPhoto = z
  .object({
    id: z.string(),
    imageName: z.string(),
    url: fileUrl,
    thumbnailUrl: fileUrl,
    caption: z.string(),
    takenOn: calendarDate.nullable(),
    position: z.int(),
    width: z.int(),
    height: z.int(),
    /** The thumbnail's size, for the page the server draws for a visitor. */
    thumbnailBytes: z.int(),
  })
  .meta({ id: 'AlbumPhoto' });

/** A photo as the single-photo calls answer it (add, edit). */
export const albumPhotoView = albumPhoto
  .extend({ memorialPageId: pageId, createdAt: timestamp })
  .meta({ id: 'AlbumPhotoView' });

const album = z.array(albumPhoto);

/** An entry as the timeline list gives it. */
export const historyEntry = z
  .object({
    id: z.string(),
    occurredOn: calendarDate,
    body: z.string(),
    imageName: z.string().nullable(),
    url: fileUrl.nullable(),
    thumbnailUrl: fileUrl.nullable(),
  })
  .meta({ id: 'HistoryEntry' });

/** An entry as the single-entry calls answer it (add, edit). */
export const historyEntryView = historyEntry
  .extend({ memorialPageId: pageId, createdAt: timestamp, updatedAt: timestamp })
  .meta({ id: 'HistoryEntryView' });

export const pageAdmin = z
  .object({
    userId,
    lastName: z.string(),
    firstName: z.string(),
    lastNameKana: z.string(),
    firstNameKana: z.string(),
    iconUrl: fileUrl.nullable(),
    /** The avatar's badge: an active identity certificate (docs/death-detection.md). */
    certificated: z.boolean(),
    role: z.literal('admin'),
  })
  .meta({ id: 'PageAdmin' });

export const condolence = z
  .object({
    id: z.string(),
    memorialPageId: pageId,
    authorUserId: userId,
    authorLastName: z.string(),
    authorFirstName: z.string(),
    body: z.string(),
    status: z.enum(['pending', 'approved', 'hidden']),
    createdAt: timestamp,
  })
  .meta({ id: 'Condolence' });

export const shareToken = z
  .object({
    token: z.string(),
    invitingUserId: userId,
    memorialPageId: pageId,
    setAdmin: z.boolean(),
    expiresAt: timestamp,
  })
  .meta({ id: 'ShareToken' });

/** The pair a shared invitation link carries. */
export const invitationSchema = z
  .object({ token: requiredText(200), inviting_user_id: requiredText(100) })
  .meta({
    id: 'Invitation',
    examples: [{ token: 'k3J9xQ2mVb7T', inviting_user_id: '0b9f3c1e-5d2a-4c77-9a51-3f0e8d2b6a14' }],
  });

const invitationExample = {
  token: 'k3J9xQ2mVb7T',
  inviting_user_id: '0b9f3c1e-5d2a-4c77-9a51-3f0e8d2b6a14',
};

/** The profile a page is created or edited with (request, snake_case). */
const profileExample = {
  type: 'pet',
  first_name: sample.petName,
  first_name_kana: sample.petNameKana,
  animal_kind: sample.animalKind,
  birth_date: '2012-04-01',
  death_date: '2024-03-14',
  privacy: 'connections',
};

/**
 * The create and edit bodies. The server builds them with its own clock, against which the
 * dates are checked (server/routes/memorial/pages.ts); the endpoints below with the caller's.
 */
export const createPageBody = (options?: DateOptions) =>
  createPageSchema(options).meta({ examples: [profileExample] });
export const updatePageBody = (options?: DateOptions) =>
  updatePageSchema(options).meta({
    examples: [{ animal_kind: sample.animalKind, searchable: true }],
  });

export const memorialEndpoints = named({
  createPage: endpoint({
    method: 'POST',
    path: '/v1/memorial_page',
    summary: 'A page for another person or a pet; its creator becomes its first admin',
    tag: PAGES,
    caller: 'member',
    body: createPageBody(),
    responses: { 201: memorialPage },
  }),
  readPage: endpoint({
    method: 'GET',
    path: '/v1/memorial_page/:id',
    summary: "The page with the caller's role and mode (401 to a visitor for a page not public)",
    tag: PAGES,
    caller: 'optional',
    params: pageParams,
    responses: { 200: memorialPage, 401: errorBody, 404: errorBody },
  }),
  updatePage: endpoint({
    method: 'PATCH',
    path: '/v1/memorial_page/:id',
    summary: "Changes the page's profile, privacy or search listing (admins)",
    tag: PAGES,
    caller: 'member',
    params: pageParams,
    body: updatePageBody(),
    responses: { 200: memorialPage, 403: errorBody, 404: errorBody },
  }),
  listAdmins: endpoint({
    method: 'GET',
    path: '/v1/memorial_page/get_memorial_page_admin/:id',
    summary: "The page's admins, earliest first",
    tag: PAGES,
    caller: 'optional',
    params: pageParams,
    responses: { 200: z.array(pageAdmin), 401: errorBody, 404: errorBody },
  }),
  addAdmin: endpoint({
    method: 'POST',
    path: '/v1/memorial_page/add_memorial_page_admin/:id/:adminUserId',
    summary: 'Makes a connection or viewer an admin, or the caller with an admin invitation',
    tag: PAGES,
    caller: 'member',
    params: pageParams.extend({ adminUserId: z.string().max(100) }),
    responses: {
      200: z.object({ memorialPageId: pageId, userId, role: z.literal('admin') }),
      403: errorBody,
      404: errorBody,
    },
  }),
  listAlbum: endpoint({
    method: 'GET',
    path: '/v1/album/memorial_page_id/:id/album',
    summary: 'The album in display order (ETag; 304 when unchanged)',
    tag: ALBUM,
    caller: 'optional',
    params: pageParams,
    responses: { 200: album, 401: errorBody, 404: errorBody },
  }),
  listAlbumPaged: endpoint({
    method: 'GET',
    path: '/v1/album/memorial_page_id/:id/album/paged',
    summary:
      'The album a page at a time, in display order; 400 `cursor_invalid` for a cursor of another list (ETag; 304 when unchanged)',
    tag: ALBUM,
    caller: 'optional',
    params: pageParams,
    query: pageQuery,
    responses: { 200: pageOf(albumPhoto), 400: errorBody, 401: errorBody, 404: errorBody },
  }),
  addPhoto: endpoint({
    method: 'POST',
    path: '/v1/album/memorial_page_id/:id/album',
    summary: "Adds the caller's own upload at the end of the album (admins)",
    tag: ALBUM,
    caller: 'member',
    params: pageParams,
    body: albumPhotoCreateSchema.meta({
      examples: [
        { image_name: 'f3a9c1d2e4b5.jpg', caption: sample.caption, taken_on: '2019-04-06' },
      ],
    }),
    responses: { 201: albumPhotoView, 403: errorBody, 404: errorBody },
  }),
  reorderAlbum: endpoint({
    method: 'PUT',
    path: '/v1/album/memorial_page_id/:id/album/order',
    summary: 'Puts the album in the given order, naming every photo once (admins)',
    tag: ALBUM,
    caller: 'member',
    params: pageParams,
    body: z
      .object({
        photo_ids: z
          .array(z.uuid({ error: 'invalid_type' }), { error: 'required' })
          .max(ALBUM_MAX_PHOTOS, 'too_long'),
      })
      .meta({
        examples: [
          {
            photo_ids: [
              '7c1e2d3f-4a5b-4c6d-8e7f-901a2b3c4d5e',
              '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b',
            ],
          },
        ],
      }),
    responses: { 200: album, 403: errorBody, 404: errorBody },
  }),
  updatePhoto: endpoint({
    method: 'PATCH',
    path: '/v1/album/memorial_page_id/:id/album/:photoId',
    summary: "Changes a photo's caption or date (admins)",
    tag: ALBUM,
    caller: 'member',
    params: photoParams,
    body: albumPhotoUpdateSchema.meta({
      examples: [{ caption: sample.captionOfLastWalk, taken_on: '2024-03-01' }],
    }),
    responses: { 200: albumPhotoView, 403: errorBody, 404: errorBody },
  }),
  deletePhoto: endpoint({
    method: 'DELETE',
    path: '/v1/album/memorial_page_id/:id/album/:photoId',
    summary: 'Deletes a photo and its files (admins)',
    tag: ALBUM,
    caller: 'member',
    params: photoParams,
    responses: { 204: noBody, 403: errorBody, 404: errorBody },
  }),
  listHistoryPaged: endpoint({
    method: 'GET',
    path: '/v1/history/get_histories_by_memorial_page_id/:id/paged',
    summary:
      'The history timeline a page at a time, in the order of the whole list; 400 `cursor_invalid` for a cursor of another list (ETag; 304 when unchanged)',
    tag: HISTORY,
    caller: 'optional',
    params: pageParams,
    query: pageQuery,
    responses: { 200: pageOf(historyEntry), 400: errorBody, 401: errorBody, 404: errorBody },
  }),
  listHistory: endpoint({
    method: 'GET',
    path: '/v1/history/get_histories_by_memorial_page_id/:id',
    summary: 'The history timeline, oldest first (ETag; 304 when unchanged)',
    tag: HISTORY,
    caller: 'optional',
    params: pageParams,
    responses: { 200: z.array(historyEntry), 401: errorBody, 404: errorBody },
  }),
  addHistory: endpoint({
    method: 'POST',
    path: '/v1/history/memorial_page_id/:id/history',
    summary: 'Adds an entry to the timeline (admins)',
    tag: HISTORY,
    caller: 'member',
    params: pageParams,
    body: historyCreateSchema.meta({
      examples: [{ occurred_on: '2012-04-01', body: sample.historyBody, image_name: null }],
    }),
    responses: { 201: historyEntryView, 403: errorBody, 404: errorBody },
  }),
  updateHistory: endpoint({
    method: 'PATCH',
    path: '/v1/history/memorial_page_id/:id/history/:entryId',
    summary: 'Changes an entry; `image_name: null` removes its photo (admins)',
    tag: HISTORY,
    caller: 'member',
    params: entryParams,
    body: historyUpdateSchema.meta({
      examples: [{ body: sample.historyBodyEdited, image_name: 'f3a9c1d2e4b5.jpg' }],
    }),
    responses: { 200: historyEntryView, 403: errorBody, 404: errorBody },
  }),
  deleteHistory: endpoint({
    method: 'DELETE',
    path: '/v1/history/memorial_page_id/:id/history/:entryId',
    summary: 'Deletes an entry and its photo (admins)',
    tag: HISTORY,
    caller: 'member',
    params: entryParams,
    responses: { 204: noBody, 403: errorBody, 404: errorBody },
  }),
  listCondolences: endpoint({
    method: 'GET',
    path: '/v1/memorial_page/:id/condolences',
    summary: 'Condolence messages: admins see all, others the approved and their own',
    tag: MOURNING,
    caller: 'optional',
    params: pageParams,
    responses: { 200: z.array(condolence), 401: errorBody, 404: errorBody },
  }),
  addCondolence: endpoint({
    method: 'POST',
    path: '/v1/memorial_page/:id/condolences',
    summary: "Signs the page's guest book; pending until an admin approves it",
    tag: MOURNING,
    caller: 'member',
    params: pageParams,
    body: condolenceCreateSchema.meta({ examples: [{ body: sample.condolence }] }),
    responses: { 201: condolence, 404: errorBody },
  }),
  decideCondolence: endpoint({
    method: 'PATCH',
    path: '/v1/memorial_page/:id/condolences/:condolenceId',
    summary: 'Approves or hides a condolence message (admins)',
    tag: MOURNING,
    caller: 'member',
    params: condolenceParams,
    body: z
      .object({ status: z.enum(['approved', 'hidden'], { error: 'invalid_choice' }) })
      .meta({ examples: [{ status: 'approved' }] }),
    responses: { 200: condolence, 403: errorBody, 404: errorBody },
  }),
  offerFlower: endpoint({
    method: 'POST',
    path: '/v1/memorial_page/:id/flowers',
    summary: 'Offers a flower (once a day counts once)',
    tag: MOURNING,
    caller: 'member',
    params: pageParams,
    responses: {
      200: z.object({ flowerCount: z.int().min(0), offeredToday: z.literal(true) }),
      404: errorBody,
    },
  }),
  createShareToken: endpoint({
    method: 'POST',
    path: '/v1/share_token/create_share_token',
    summary: 'An invitation link to the page; with `set_admin` the invitee becomes an admin',
    tag: INVITATIONS,
    caller: 'member',
    body: z
      .object({
        memorial_page_id: z.uuid({ error: 'invalid_type' }),
        set_admin: z.boolean({ error: 'invalid_type' }).default(false),
      })
      .meta({
        examples: [{ memorial_page_id: '5a0c2f6e-1b7d-4e39-8c2a-9d4f1e6b3a70', set_admin: false }],
      }),
    responses: { 201: shareToken, 403: errorBody, 404: errorBody },
  }),
  validateShareToken: endpoint({
    method: 'POST',
    path: '/v1/share_token/validate_share_token',
    summary: 'Whether an invitation is valid; any failure, a malformed body too, is false',
    tag: INVITATIONS,
    caller: 'optional',
    // Not checked: a body that is not an invitation is answered `isValid: false`.
    body: z.union([invitationSchema, z.unknown()]).meta({ examples: [invitationExample] }),
    responses: { 200: z.object({ isValid: z.boolean() }) },
  }),
  expireShareToken: endpoint({
    method: 'PATCH',
    path: '/v1/share_token/expire_share_token',
    summary: 'Ends an invitation; it answers invalid from then on',
    tag: INVITATIONS,
    caller: 'optional',
    body: invitationSchema,
    responses: { 204: noBody, 404: errorBody },
  }),
  pageOfInvitation: endpoint({
    method: 'POST',
    path: '/v1/memorial_page/get_memorial_page_id_from_inviting_user_id',
    summary: "The invitation's page: its id as a bare JSON string",
    tag: INVITATIONS,
    caller: 'optional',
    body: invitationSchema,
    responses: { 200: pageId, 404: errorBody },
  }),
  acceptInvitation: endpoint({
    method: 'POST',
    path: '/v1/connection/create_connection_to_inviting_user',
    summary: 'Accepts an invitation: the caller and the inviter are connected',
    tag: INVITATIONS,
    caller: 'member',
    body: invitationSchema,
    responses: { 204: noBody, 404: errorBody },
  }),
  signedUrl: endpoint({
    method: 'GET',
    path: '/v1/signed_url',
    summary: 'A URL to upload an image to (PUT) or read a file from (GET); limited per caller',
    tag: FILES,
    caller: 'optional',
    query: z.object({
      method: z.enum(['GET', 'PUT'], { error: 'invalid_choice' }),
      image_name: z.string().max(OBJECT_NAME_MAX_LENGTH, 'too_long').optional(),
    }),
    responses: {
      200: z.object({ url: fileUrl, imageName: z.string() }).meta({ id: 'SignedUrl' }),
      404: errorBody,
    },
    rateLimited: true,
  }),
  shareImage: endpoint({
    method: 'GET',
    path: '/v1/memorial_page/:id/share_image.jpg',
    summary: "A public page's share preview (og:image), for crawlers without a session",
    tag: PAGES,
    caller: 'public',
    params: pageParams,
    responses: { 200: fileBody('The preview as JPEG', ['image/jpeg']), 404: errorBody },
  }),
});
