import type { z } from 'zod';
import type { CallInput } from '../http/callEndpoint';
import {
  memorialEndpoints as memorial,
  type albumPhoto,
  type anniversary,
  type condolence,
  type historyEntry,
  type memorialPage,
  type pageAdmin,
  type shareToken,
} from '../../../contract/memorial';
import type { MemoryProfile } from '../../machines/memoryCreation';
import { callEndpoint } from '../http/callEndpoint';
import { pageQueryOf, type ListPage } from './listPages';

/** The memorial-page calls (docs/memorial.md, "API calls"); the wire's shapes are the contract's. */

export type Anniversary = z.infer<typeof anniversary>;
export type MemorialPage = z.infer<typeof memorialPage>;
export type PageRole = NonNullable<MemorialPage['role']>;
export type PageMode = MemorialPage['mode'];
export type AlbumPhoto = z.infer<typeof albumPhoto>;
export type HistoryEntry = z.infer<typeof historyEntry>;
export type PageAdmin = z.infer<typeof pageAdmin>;
export type Condolence = z.infer<typeof condolence>;
export type ShareToken = z.infer<typeof shareToken>;
export type { ListPage } from './listPages';

/** What every invitation call sends: the pair from the shared link. */
export interface InvitationCredential {
  token: string;
  invitingUserId: string;
}

export { memorialKeys } from '../../../contract/pages/memorialKeys';

/** Album, history and admin lists may answer an object with `detail` instead of [] when empty or refused; both read as an empty list. */
function listOf<T>(answer: T[]): T[] {
  return Array.isArray(answer) ? answer : [];
}

/**
 * How a page read goes out. `asVisitor`: without the session's bearer and without waiting
 * for the session check, as a signed-out visitor reads (src/screens/memory/pageQuery.ts
 * starts these before the session is known and keeps them only for a visitor).
 */
export interface ReadOptions {
  asVisitor?: boolean;
}

const readConfig = (options: ReadOptions) => (options.asVisitor ? { authenticate: false } : {});

export async function fetchPage(id: string, options: ReadOptions = {}): Promise<MemorialPage> {
  return callEndpoint(memorial.readPage, { params: { id } }, readConfig(options));
}

/** The profile as the form holds it (request fields, snake_case, which the client keeps). */
type PageBody<E extends typeof memorial.createPage | typeof memorial.updatePage> =
  CallInput<E> extends { body: infer Body } ? Body : never;

export async function createPage(
  type: 'other' | 'pet',
  profile: MemoryProfile,
): Promise<MemorialPage> {
  // The contract types the body as parsed (camelCase); the wire takes the form's snake_case.
  const body = { ...profile, type } as unknown as PageBody<typeof memorial.createPage>;
  return callEndpoint(memorial.createPage, { body });
}

/** Any profile field, `privacy`, `searchable` (request fields, snake_case). */
export async function updatePage(
  id: string,
  changes: Partial<MemoryProfile>,
): Promise<MemorialPage> {
  const body = changes as PageBody<typeof memorial.updatePage>;
  return callEndpoint(memorial.updatePage, { params: { id }, body });
}

export async function fetchAlbum(id: string, options: ReadOptions = {}): Promise<AlbumPhoto[]> {
  return listOf(await callEndpoint(memorial.listAlbum, { params: { id } }, readConfig(options)));
}

/** One page of the album (`cursor` null for the first). */
export async function fetchAlbumPage(
  id: string,
  cursor: string | null,
  options: ReadOptions = {},
): Promise<ListPage<AlbumPhoto>> {
  return callEndpoint(
    memorial.listAlbumPaged,
    { params: { id }, query: pageQueryOf(cursor) },
    readConfig(options),
  );
}

export async function addAlbumPhoto(
  id: string,
  photo: { imageName: string; caption: string; takenOn: string | null },
): Promise<AlbumPhoto> {
  return callEndpoint(memorial.addPhoto, { params: { id }, body: photo });
}

export async function updateAlbumPhoto(
  id: string,
  photoId: string,
  changes: { caption: string; takenOn: string | null },
): Promise<AlbumPhoto> {
  return callEndpoint(memorial.updatePhoto, { params: { id, photoId }, body: changes });
}

export async function deleteAlbumPhoto(id: string, photoId: string): Promise<void> {
  await callEndpoint(memorial.deletePhoto, { params: { id, photoId } });
}

export async function reorderAlbum(id: string, photoIds: string[]): Promise<AlbumPhoto[]> {
  return listOf(await callEndpoint(memorial.reorderAlbum, { params: { id }, body: { photoIds } }));
}

/** One page of the history (`cursor` null for the first). */
export async function fetchHistoryPage(
  id: string,
  cursor: string | null,
  options: ReadOptions = {},
): Promise<ListPage<HistoryEntry>> {
  return callEndpoint(
    memorial.listHistoryPaged,
    { params: { id }, query: pageQueryOf(cursor) },
    readConfig(options),
  );
}

export interface HistoryInput {
  occurredOn: string;
  body: string;
  /** A newly uploaded photo, `null` to remove the photo, undefined to keep it. */
  imageName?: string | null;
}

export async function addHistory(id: string, entry: HistoryInput): Promise<HistoryEntry> {
  return callEndpoint(memorial.addHistory, { params: { id }, body: entry });
}

export async function updateHistory(
  id: string,
  entryId: string,
  entry: HistoryInput,
): Promise<HistoryEntry> {
  return callEndpoint(memorial.updateHistory, { params: { id, entryId }, body: entry });
}

export async function deleteHistory(id: string, entryId: string): Promise<void> {
  await callEndpoint(memorial.deleteHistory, { params: { id, entryId } });
}

export async function fetchAdmins(id: string, options: ReadOptions = {}): Promise<PageAdmin[]> {
  return listOf(await callEndpoint(memorial.listAdmins, { params: { id } }, readConfig(options)));
}

export async function addPageAdmin(id: string, adminUserId: string): Promise<void> {
  await callEndpoint(memorial.addAdmin, { params: { id, adminUserId } });
}

export async function fetchCondolences(id: string): Promise<Condolence[]> {
  return listOf(await callEndpoint(memorial.listCondolences, { params: { id } }));
}

export async function addCondolence(id: string, body: string): Promise<Condolence> {
  return callEndpoint(memorial.addCondolence, { params: { id }, body: { body } });
}

export async function decideCondolence(
  id: string,
  condolenceId: string,
  status: 'approved' | 'hidden',
): Promise<Condolence> {
  return callEndpoint(memorial.decideCondolence, {
    params: { id, condolenceId },
    body: { status },
  });
}

export async function offerFlower(id: string): Promise<{ flowerCount: number }> {
  return callEndpoint(memorial.offerFlower, { params: { id } });
}

export async function createShareToken(
  memorialPageId: string,
  setAdmin: boolean,
): Promise<ShareToken> {
  return callEndpoint(memorial.createShareToken, { body: { memorialPageId, setAdmin } });
}

/** `{isValid}`; any failure of the call means false: an invitation that cannot be checked is not accepted. */
export async function validateShareToken(credential: InvitationCredential): Promise<boolean> {
  try {
    const data = await callEndpoint(memorial.validateShareToken, { body: credential });
    return data.isValid === true;
  } catch {
    return false;
  }
}

export async function expireShareToken(credential: InvitationCredential): Promise<void> {
  await callEndpoint(memorial.expireShareToken, { body: credential });
}

export async function memorialPageIdOfInvitation(
  credential: InvitationCredential,
): Promise<string> {
  return callEndpoint(memorial.pageOfInvitation, { body: credential });
}

export async function connectToInvitingUser(credential: InvitationCredential): Promise<void> {
  await callEndpoint(memorial.acceptInvitation, { body: credential });
}
