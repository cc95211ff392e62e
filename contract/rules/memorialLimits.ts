/**
 * The memorial area's limits and privacy settings, without zod: screens a visitor opens
 * (maxLength of a textarea, the privacy choices) import these, so that the schemas and zod
 * load only when a form is checked. `./memorial` re-exports them for everyone else.
 */
export const PRIVACY_SETTINGS = ['public', 'link', 'connections', 'admins'] as const;
export type Privacy = (typeof PRIVACY_SETTINGS)[number];

export const CAPTION_MAX_LENGTH = 200;
export const HISTORY_BODY_MAX_LENGTH = 2000;
export const CONDOLENCE_MAX_LENGTH = 1000;
export const ANIMAL_KIND_MAX_LENGTH = 30;
export const OBJECT_NAME_MAX_LENGTH = 200;
/** The most photos one reorder call may list (a page's whole album). */
export const ALBUM_MAX_PHOTOS = 1000;
