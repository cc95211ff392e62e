import { z } from 'zod';
import { currentPasswordField, timestamp } from './common';
import { endpoint, errorBody, fileBody } from './endpoint';
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

const exportParams = z.object({ exportId: z.uuid({ error: 'export_id_invalid' }) });

export const dataExportEndpoints = {
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
  download: endpoint({
    method: 'GET',
    path: '/v1/data_exports/download',
    summary: 'The archive (ZIP) of a download link; the link is spent',
    tag: TAG,
    caller: 'public',
    query: z.object({ token: z.string({ error: 'token_invalid' }).max(200) }),
    responses: { 200: fileBody('The archive as a ZIP file'), 400: errorBody },
  }),
};
