import type { ApiGet } from '../ui/apiGet';
import type { MemorialPageContents } from '../../machines/memoryNavigation';

/** Album, history and admin lists answer an object with `detail` instead of [] (spec §7). */
export function listOrEmpty(answer: unknown): unknown[] {
  return Array.isArray(answer) ? answer : [];
}

export async function loadMemorialPageContents(
  apiGet: ApiGet,
  memorialPageId: string,
): Promise<MemorialPageContents> {
  const id = encodeURIComponent(memorialPageId);
  const [album, histories, admins] = await Promise.all([
    apiGet(`/v1/album/memorial_page_id/${id}/album`),
    apiGet(`/v1/history/get_histories_by_memorial_page_id/${id}`),
    apiGet(`/v1/memorial_page/get_memorial_page_admin/${id}`),
  ]);
  return {
    album: listOrEmpty(album),
    histories: listOrEmpty(histories),
    admins: listOrEmpty(admins),
  };
}

export async function loadUnsentLetters(apiGet: ApiGet): Promise<unknown[]> {
  const answer = await apiGet('/v1/time_capsule_letter/get_unsent_letters');
  if (!Array.isArray(answer)) throw new Error('unsent letters: the answer is not a list');
  return answer;
}
