import type { z } from 'zod';
import { dataExportEndpoints as exports, type dataExportItem } from '../../contract/dataExport';
import { callEndpoint } from '../http/callEndpoint';

/** The archive of all of a member's data (docs/data-export.md). */
export type DataExport = z.infer<typeof dataExportItem>;

export const dataExportKeys = { list: ['dataExports'] as const };

export async function fetchDataExports(): Promise<DataExport[]> {
  return (await callEndpoint(exports.listExports, {})).exports;
}

/** A sensitive request: run it through useFreshProof's `prove`. */
export function requestDataExport(currentPassword?: string): Promise<DataExport> {
  return callEndpoint(exports.requestExport, { body: { currentPassword } });
}

/** A link that downloads the archive once, within 15 minutes. */
export async function dataExportDownloadUrl(exportId: string): Promise<string> {
  return (await callEndpoint(exports.createDownloadLink, { params: { exportId } })).url;
}
