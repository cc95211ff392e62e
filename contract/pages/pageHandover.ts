/**
 * The names by which a page the server writes hands things to the browser's app: elements
 * carrying JSON, and cookies the server reads on page requests. Both sides import them here.
 */

/** The element with what a page rendered on the server was rendered from (router data, answers). */
export const PAGE_DATA_ID = 'shinobu-page-data';

/** The element that carries a member's session in the page. */
export const PAGE_SESSION_ID = 'shinobu-session';

/** The theme choice, sent with page requests too so that the server's page opens in it. */
export const THEME_COOKIE = 'shinobu-theme';
