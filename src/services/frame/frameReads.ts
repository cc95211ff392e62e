import type { MemorialPageContents } from '../../machines/memoryNavigation';
import { lazyGet } from '../http/lazy';

/*
 * What the app frame (menu, header, tab bar, avatars) reads from the product API, through
 * the HTTP client loaded with the first call, so that the entry route stays without axios.
 */

/** Album, history and admin lists answer an object with `detail` instead of [] when empty or refused; both read as an empty list. */
export function listOrEmpty(answer: unknown): unknown[] {
  return Array.isArray(answer) ? answer : [];
}

export async function loadMemorialPageContents(
  memorialPageId: string,
): Promise<MemorialPageContents> {
  const id = encodeURIComponent(memorialPageId);
  const [album, histories, admins] = await Promise.all([
    lazyGet(`/v1/album/memorial_page_id/${id}/album`),
    lazyGet(`/v1/history/get_histories_by_memorial_page_id/${id}`),
    lazyGet(`/v1/memorial_page/get_memorial_page_admin/${id}`),
  ]);
  return {
    album: listOrEmpty(album),
    histories: listOrEmpty(histories),
    admins: listOrEmpty(admins),
  };
}

export async function loadUnsentLetters(): Promise<unknown[]> {
  const answer = await lazyGet('/v1/time_capsule_letter/get_unsent_letters');
  if (!Array.isArray(answer)) throw new Error('unsent letters: the answer is not a list');
  return answer;
}

/** The member's unread notifications; an answer without a count counts none. */
export async function fetchUnreadCount(): Promise<number> {
  const answer = await lazyGet('/v1/notification/user_notifications/unread/count');
  if (typeof answer === 'number') return answer;
  const count = (answer as { count?: unknown } | null)?.count;
  return typeof count === 'number' ? count : 0;
}

/** Whether a member's identity is verified. */
export async function fetchCertificated(userId: string): Promise<boolean> {
  const answer = (await lazyGet(
    `/v1/identity_verification/certificated/${encodeURIComponent(userId)}`,
  )) as { certificated?: unknown };
  return answer.certificated === true;
}

/** A signed GET URL for an uploaded object, or null when the answer carries none. */
export async function fetchSignedImageUrl(objectName: string): Promise<string | null> {
  const query = new URLSearchParams({ image_name: objectName, method: 'GET' });
  const answer = (await lazyGet(`/v1/signed_url?${query}`)) as { url?: unknown };
  return typeof answer.url === 'string' ? answer.url : null;
}
