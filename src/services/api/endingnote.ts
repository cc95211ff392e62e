import type { z } from 'zod';
import type { memberName } from '../../../contract/common';
import {
  endingnoteEndpoints as note,
  type noteView,
  type reader,
  type sectionView,
} from '../../../contract/endingnote';
import { pathOf, type ErrorBody } from '../../../contract/endpoint';
import type {
  SectionCode,
  SectionValues,
  SectionVisibility,
} from '../../../contract/rules/endingnote';
import { socialEndpoints as social } from '../../../contract/social';
import { snakeCaseKey } from '../http/casing';
import { callEndpoint } from '../http/callEndpoint';
import { isHttpError, loadHttp } from '../http/lazy';

/** The ending-note calls (docs/endingnote.md, "API"); the wire's shapes are the contract's. */

export type SectionView = z.infer<typeof sectionView>;
export type NoteView = z.infer<typeof noteView>;
export type MemberName = z.infer<typeof memberName>;
export type Reader = z.infer<typeof reader>;
export type FieldProblem = NonNullable<ErrorBody['errors']>[number];

/**
 * The wire client reads answers in camelCase, which turns field-code keys (`full_name`) into
 * `fullName`; the codes are snake_case by definition, so they are restored here.
 */
function withFieldCodes(view: SectionView): SectionView {
  return {
    ...view,
    values: Object.fromEntries(
      Object.entries(view.values).map(([key, value]) => [snakeCaseKey(key), value]),
    ),
  };
}

export async function fetchNote(userId: string): Promise<NoteView> {
  const data = await callEndpoint(note.readNote, { params: { userId } });
  // The note as the screen reads it, from the answer as the HTTP client reads it (camelCase).
  return { ...data, sections: data.sections.map(withFieldCodes) };
}

/** What the first reads of the note's screen answered, as the fetches below give it. */
export type SaveOutcome =
  | { kind: 'saved'; section: SectionView }
  /** Saved elsewhere since it was loaded: nothing was stored, what was typed is kept. */
  | { kind: 'stale' }
  | { kind: 'invalid'; problems: FieldProblem[] };

export async function saveSection(
  userId: string,
  section: SectionCode,
  version: number,
  values: SectionValues,
): Promise<SaveOutcome> {
  try {
    const data = await callEndpoint(note.saveSection, {
      params: { userId, section },
      body: { version, values },
    });
    return { kind: 'saved', section: withFieldCodes(data) };
  } catch (error) {
    if (isHttpError(error) && error.response?.status === 409) return { kind: 'stale' };
    if (isHttpError(error) && error.response?.status === 422) {
      const problems = (error.response.data as { errors?: FieldProblem[] }).errors ?? [];
      return { kind: 'invalid', problems };
    }
    throw error;
  }
}

/** A sensitive change: `currentPassword` is the fresh proof (src/screens/login/useFreshProof). */
export async function setSectionVisibility(
  userId: string,
  section: SectionCode,
  visibility: SectionVisibility,
  currentPassword?: string,
): Promise<SectionView> {
  const data = await callEndpoint(note.setSectionVisibility, {
    params: { userId, section },
    body: { visibility, currentPassword },
  });
  return withFieldCodes(data);
}

export async function fetchReaders(userId: string): Promise<Reader[]> {
  const data = await callEndpoint(note.listReaders, { params: { userId } });
  return data.readers;
}

/** A sensitive change: `currentPassword` is the fresh proof (src/screens/login/useFreshProof). */
export async function replaceReaders(
  userId: string,
  userIds: string[],
  currentPassword?: string,
): Promise<Reader[]> {
  const data = await callEndpoint(note.replaceReaders, {
    params: { userId },
    body: { userIds, currentPassword },
  });
  return data.readers;
}

function choicesOf(data: { items: MemberName[] }): MemberName[] {
  return data.items.map(({ userId, lastName, firstName }) => ({ userId, lastName, firstName }));
}

/** The owner's connections, the only members a user-select or the readers may name. */
export async function fetchConnectionChoices(): Promise<MemberName[]> {
  return choicesOf(await callEndpoint(social.listConnections, {}));
}

async function fetchExport(userId: string, format: 'json' | 'html') {
  // The file's name comes in a header, so the whole response is read, not only its body.
  const http = await loadHttp();
  return http.get<Blob>(pathOf(note.exportNote.path, { userId }), {
    params: { format },
    responseType: 'blob',
  });
}

/**
 * Shows the printable note in a new tab, where the browser prints it or saves it as PDF. The
 * tab is opened before the call so that it still counts as the member's own click.
 */
export async function openPrintView(userId: string): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const response = await fetchExport(userId, 'html');
    const html = new Blob([response.data], { type: 'text/html' });
    if (tab) tab.location.href = URL.createObjectURL(html);
  } catch (error) {
    tab?.close();
    throw error;
  }
}

/** The whole note as a file (JSON to keep, HTML to print) with the server's file name. */
export async function fetchExportFile(
  userId: string,
  format: 'json' | 'html',
): Promise<{ fileName: string; file: Blob }> {
  const response = await fetchExport(userId, format);
  const disposition = String(response.headers['content-disposition'] ?? '');
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `endingnote.${format}`;
  return { fileName, file: response.data };
}

/** Downloads the whole note as a file the member keeps (JSON) or prints (HTML). */
export async function downloadExport(userId: string, format: 'json' | 'html'): Promise<void> {
  const { fileName, file } = await fetchExportFile(userId, format);
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}
