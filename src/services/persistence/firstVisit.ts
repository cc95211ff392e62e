/**
 * The local-storage keys of a new member: `isFirstTimeUser`, set when they
 * register or activate and ended when they dismiss the welcome (or delete the account), and
 * `memorial_page_id`, the signed-in member's own memorial page id.
 */
export const FIRST_TIME_USER_KEY = 'isFirstTimeUser';
export const MEMORIAL_PAGE_ID_KEY = 'memorial_page_id';

export const firstVisit = {
  start: () => localStorage.setItem(FIRST_TIME_USER_KEY, 'true'),
  isFirst: () => localStorage.getItem(FIRST_TIME_USER_KEY) === 'true',
  end: () => localStorage.removeItem(FIRST_TIME_USER_KEY),
};

/** Kept for the signed-in member; removed when nobody is signed in. */
export function rememberOwnMemorialPageId(memorialPageId: string | null): void {
  if (memorialPageId) localStorage.setItem(MEMORIAL_PAGE_ID_KEY, memorialPageId);
  else localStorage.removeItem(MEMORIAL_PAGE_ID_KEY);
}
