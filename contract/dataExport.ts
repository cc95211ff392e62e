import { z } from 'zod';
import { currentPasswordField, memberName, timestamp } from './common';
import { pageParams } from './memorial';
import { endpoint, errorBody, fileBody, named } from './endpoint';
import { DATA_EXPORT_STATUSES } from './rules/dataExport';

const TAG = 'Data export';

export const dataExportItem = z
  .object({
    id: z.uuid(),
    status: z.enum(DATA_EXPORT_STATUSES),
    createdAt: timestamp,
    readyAt: timestamp.nullable(),
    /** When a ready archive is deleted. */
    expiresAt: timestamp.nullable(),
    byteSize: z.number().int().nullable(),
  })
  .meta({ id: 'DataExport' });

/** A keepsake of a memorial page, with the admin who asked for it. */
export const keepsakeItem = dataExportItem
  .extend({ requestedBy: memberName })
  .meta({ id: 'Keepsake' });

/** A released member's archive an administrator received (docs/after-death.md). */
export const entrustedArchiveItem = dataExportItem
  .extend({ member: memberName })
  .meta({ id: 'EntrustedArchive' });

const exportParams = z.object({ exportId: z.uuid({ error: 'export_id_invalid' }) });

export const dataExportEndpoints = named({
  requestExport: endpoint({
    method: 'POST',
    path: '/v1/data_exports',
    summary: 'Asks for an archive of all the member’s data, built in the background (fresh proof)',
    tag: TAG,
    caller: 'member',
    body: z.object(currentPasswordField).meta({ examples: [{ current_password: '••••••••' }] }),
    responses: { 202: dataExportItem, 409: errorBody },
    rateLimited: true,
    freshProof: true,
  }),
  listExports: endpoint({
    method: 'GET',
    path: '/v1/data_exports',
    summary: 'The member’s archives of the last days, newest first, with where each stands',
    tag: TAG,
    caller: 'member',
    responses: { 200: z.object({ exports: z.array(dataExportItem) }) },
  }),
  listEntrustedArchives: endpoint({
    method: 'GET',
    path: '/v1/data_exports/entrusted',
    summary: 'The archives of released members the caller receives as their chosen administrator',
    tag: TAG,
    caller: 'member',
    responses: { 200: z.object({ archives: z.array(entrustedArchiveItem) }) },
  }),
  createDownloadLink: endpoint({
    method: 'POST',
    path: '/v1/data_exports/:exportId/download_link',
    summary: 'A link that downloads a ready archive once, within 15 minutes',
    tag: TAG,
    caller: 'member',
    params: exportParams,
    responses: {
      201: z.object({ url: z.string(), expiresAt: timestamp }),
      404: errorBody,
      409: errorBody,
    },
  }),
  requestKeepsake: endpoint({
    method: 'POST',
    path: '/v1/memorial_page/:id/keepsakes',
    summary:
      'An admin asks for the page’s keepsake (photos, history, condolences and a printable book), built in the background',
    tag: TAG,
    caller: 'member',
    params: pageParams,
    responses: { 202: dataExportItem, 403: errorBody, 404: errorBody, 409: errorBody },
    rateLimited: true,
  }),
  listKeepsakes: endpoint({
    method: 'GET',
    path: '/v1/memorial_page/:id/keepsakes',
    summary:
      'Whether the page’s keepsake may be made, and those its admins asked for in the last days',
    tag: TAG,
    caller: 'member',
    params: pageParams,
    responses: {
      200: z.object({ available: z.boolean(), keepsakes: z.array(keepsakeItem) }),
      403: errorBody,
      404: errorBody,
    },
  }),
  download: endpoint({
    method: 'GET',
    path: '/v1/data_exports/download',
    summary: 'The archive (ZIP) of a download link; the link is spent',
    tag: TAG,
    caller: 'public',
    query: z.object({ token: z.string({ error: 'token_invalid' }).max(200) }),
    responses: { 200: fileBody('The archive as a ZIP file', ['application/zip']), 400: errorBody },
  }),
});
