import type { z } from 'zod';
import {
  dataExportEndpoints as exports,
  type dataExportItem,
  type entrustedArchiveItem,
  type keepsakeItem,
} from '../../../contract/dataExport';
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

/** A released member's archive the caller receives as their administrator (docs/after-death.md). */
export type EntrustedArchive = z.infer<typeof entrustedArchiveItem>;

export const entrustedKeys = { list: ['dataExports', 'entrusted'] as const };

export async function fetchEntrustedArchives(): Promise<EntrustedArchive[]> {
  return (await callEndpoint(exports.listEntrustedArchives, {})).archives;
}

/** A memorial page's keepsake, with the admin who asked for it (docs/keepsake.md). */
export type Keepsake = z.infer<typeof keepsakeItem>;

export const keepsakeKeys = { ofPage: (pageId: string) => ['keepsakes', pageId] as const };

export function fetchKeepsakes(
  pageId: string,
): Promise<{ available: boolean; keepsakes: Keepsake[] }> {
  return callEndpoint(exports.listKeepsakes, { params: { id: pageId } });
}

export function requestKeepsake(pageId: string): Promise<DataExport> {
  return callEndpoint(exports.requestKeepsake, { params: { id: pageId } });
}
