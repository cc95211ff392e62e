import type { MemorialPage } from '../../services/api/memorial';

/* How a memorial page is named and addressed on screen. */

/** Family name first, as names are written in Japanese; a pet may have no family name. */
export const pageName = (page: Pick<MemorialPage, 'lastName' | 'firstName'>) =>
  `${page.lastName} ${page.firstName}`.trim();

export const pageKana = (page: Pick<MemorialPage, 'lastNameKana' | 'firstNameKana'>) =>
  `${page.lastNameKana} ${page.firstNameKana}`.trim();

export const memoryPath = (id: string) => `/memory/${encodeURIComponent(id)}`;
