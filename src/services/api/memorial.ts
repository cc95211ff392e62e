import type { CondolenceFields } from '../../contract/rules/memorial';
import type { Privacy } from '../../contract/rules/memorialLimits';
import type { MemoryProfile } from '../../machines/memoryCreation';
import { http } from '../http';

/** The memorial-page calls (docs/memorial.md, "API calls"). */

export type PageRole = 'admin' | 'viewer';
export type PageMode = 'admin_edit' | 'admin_view';

export interface Anniversary {
  /** `shonanoka` … `sanjusankaiki`; its label is the Fluent id `anniversary-<code>`. */
  code: string;
  date: string;
}

export interface MemorialPage {
  memorialPageId: string;
  ownerUserId: string | null;
  type: 'self' | 'other' | 'pet';
  lastName: string;
  firstName: string;
  lastNameKana: string;
  firstNameKana: string;
  photoName: string | null;
  photoUrl: string | null;
  photoThumbnailUrl: string | null;
  birthDate: string | null;
  deathDate: string | null;
  animalKind: string | null;
  privacy: Privacy;
  searchable: boolean;
  /** UTC; set once the member's confirmed death was released (the page's mourning view). */
  mourningSince: string | null;
  role: PageRole | null;
  mode: PageMode;
  anniversaries: Anniversary[];
  flowerCount: number;
}

export interface AlbumPhoto {
  id: string;
  imageName: string;
  url: string;
  thumbnailUrl: string;
  caption: string;
  takenOn: string | null;
  position: number;
  width: number;
  height: number;
}

export interface HistoryEntry {
  id: string;
  occurredOn: string;
  body: string;
  imageName: string | null;
  url: string | null;
  thumbnailUrl: string | null;
}

export interface PageAdmin {
  userId: string;
  lastName: string;
  firstName: string;
  lastNameKana: string;
  firstNameKana: string;
  iconUrl: string | null;
  certificated: boolean;
  role: PageRole;
}

export interface Condolence extends CondolenceFields<string> {
  status: 'pending' | 'approved' | 'hidden';
}

export interface ShareToken {
  token: string;
  invitingUserId: string;
  memorialPageId: string;
  setAdmin: boolean;
  expiresAt: string;
}

/** What every invitation call sends: the pair from the shared link. */
export interface InvitationCredential {
  token: string;
  invitingUserId: string;
}

export { memorialKeys } from '../../contract/pages/memorialKeys';

const pagePath = (id: string) => `/v1/memorial_page/${encodeURIComponent(id)}`;
const albumPath = (id: string) => `/v1/album/memorial_page_id/${encodeURIComponent(id)}/album`;
const historyPath = (id: string) =>
  `/v1/history/memorial_page_id/${encodeURIComponent(id)}/history`;

/** Album, history and admin lists may answer an object with `detail` instead of [] (spec §7). */
function listOf<T>(answer: unknown): T[] {
  return Array.isArray(answer) ? (answer as T[]) : [];
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
  const { data } = await http.get<MemorialPage>(pagePath(id), readConfig(options));
  return data;
}

export async function createPage(
  type: 'other' | 'pet',
  profile: MemoryProfile,
): Promise<MemorialPage> {
  const { data } = await http.post<MemorialPage>('/v1/memorial_page', { ...profile, type });
  return data;
}

/** Any profile field, `privacy`, `searchable` (request fields, snake_case). */
export async function updatePage(
  id: string,
  changes: Partial<MemoryProfile>,
): Promise<MemorialPage> {
  const { data } = await http.patch<MemorialPage>(pagePath(id), changes);
  return data;
}

export async function fetchAlbum(id: string, options: ReadOptions = {}): Promise<AlbumPhoto[]> {
  const { data } = await http.get<unknown>(albumPath(id), readConfig(options));
  return listOf<AlbumPhoto>(data);
}

export async function addAlbumPhoto(
  id: string,
  photo: { imageName: string; caption: string; takenOn: string | null },
): Promise<AlbumPhoto> {
  const { data } = await http.post<AlbumPhoto>(albumPath(id), photo);
  return data;
}

export async function updateAlbumPhoto(
  id: string,
  photoId: string,
  changes: { caption: string; takenOn: string | null },
): Promise<AlbumPhoto> {
  const { data } = await http.patch<AlbumPhoto>(
    `${albumPath(id)}/${encodeURIComponent(photoId)}`,
    changes,
  );
  return data;
}

export async function deleteAlbumPhoto(id: string, photoId: string): Promise<void> {
  await http.delete(`${albumPath(id)}/${encodeURIComponent(photoId)}`);
}

export async function reorderAlbum(id: string, photoIds: string[]): Promise<AlbumPhoto[]> {
  const { data } = await http.put<unknown>(`${albumPath(id)}/order`, { photoIds });
  return listOf<AlbumPhoto>(data);
}

export async function fetchHistories(
  id: string,
  options: ReadOptions = {},
): Promise<HistoryEntry[]> {
  const { data } = await http.get<unknown>(
    `/v1/history/get_histories_by_memorial_page_id/${encodeURIComponent(id)}`,
    readConfig(options),
  );
  return listOf<HistoryEntry>(data);
}

export interface HistoryInput {
  occurredOn: string;
  body: string;
  /** A newly uploaded photo, `null` to remove the photo, undefined to keep it. */
  imageName?: string | null;
}

export async function addHistory(id: string, entry: HistoryInput): Promise<HistoryEntry> {
  const { data } = await http.post<HistoryEntry>(historyPath(id), entry);
  return data;
}

export async function updateHistory(
  id: string,
  entryId: string,
  entry: HistoryInput,
): Promise<HistoryEntry> {
  const { data } = await http.patch<HistoryEntry>(
    `${historyPath(id)}/${encodeURIComponent(entryId)}`,
    entry,
  );
  return data;
}

export async function deleteHistory(id: string, entryId: string): Promise<void> {
  await http.delete(`${historyPath(id)}/${encodeURIComponent(entryId)}`);
}

export async function fetchAdmins(id: string, options: ReadOptions = {}): Promise<PageAdmin[]> {
  const { data } = await http.get<unknown>(
    `/v1/memorial_page/get_memorial_page_admin/${encodeURIComponent(id)}`,
    readConfig(options),
  );
  return listOf<PageAdmin>(data);
}

export async function addPageAdmin(id: string, adminUserId: string): Promise<void> {
  await http.post(
    `/v1/memorial_page/add_memorial_page_admin/${encodeURIComponent(id)}/${encodeURIComponent(adminUserId)}`,
  );
}

export async function fetchCondolences(id: string): Promise<Condolence[]> {
  const { data } = await http.get<unknown>(`${pagePath(id)}/condolences`);
  return listOf<Condolence>(data);
}

export async function addCondolence(id: string, body: string): Promise<Condolence> {
  const { data } = await http.post<Condolence>(`${pagePath(id)}/condolences`, { body });
  return data;
}

export async function decideCondolence(
  id: string,
  condolenceId: string,
  status: 'approved' | 'hidden',
): Promise<Condolence> {
  const { data } = await http.patch<Condolence>(
    `${pagePath(id)}/condolences/${encodeURIComponent(condolenceId)}`,
    { status },
  );
  return data;
}

export async function offerFlower(id: string): Promise<{ flowerCount: number }> {
  const { data } = await http.post<{ flowerCount: number }>(`${pagePath(id)}/flowers`);
  return data;
}

export async function createShareToken(
  memorialPageId: string,
  setAdmin: boolean,
): Promise<ShareToken> {
  const { data } = await http.post<ShareToken>('/v1/share_token/create_share_token', {
    memorialPageId,
    setAdmin,
  });
  return data;
}

/** `{isValid}`; any failure of the call means false (spec §7). */
export async function validateShareToken(credential: InvitationCredential): Promise<boolean> {
  try {
    const { data } = await http.post<{ isValid: boolean }>(
      '/v1/share_token/validate_share_token',
      credential,
    );
    return data.isValid === true;
  } catch {
    return false;
  }
}

export async function expireShareToken(credential: InvitationCredential): Promise<void> {
  await http.patch('/v1/share_token/expire_share_token', credential);
}

export async function memorialPageIdOfInvitation(
  credential: InvitationCredential,
): Promise<string> {
  const { data } = await http.post<string>(
    '/v1/memorial_page/get_memorial_page_id_from_inviting_user_id',
    credential,
  );
  return data;
}

export async function connectToInvitingUser(credential: InvitationCredential): Promise<void> {
  await http.post('/v1/connection/create_connection_to_inviting_user', credential);
}
