import type { ExternalLinkName } from '../externalLinks';

/**
 * The menu entries of header, burger menu, footer and tab bar.
 * A `route` entry is an in-app link, an `external` one opens a new tab, and a `rule` entry
 * runs its navigation statechart (src/machines/*Navigation.ts) to decide where to go.
 */
export type NavigationRule = 'memory' | 'endingnote' | 'timecapsule';

export interface RouteEntry {
  id: string;
  kind: 'route';
  to: string;
}
export interface ExternalEntry {
  id: string;
  kind: 'external';
  link: ExternalLinkName;
}
export interface RuleEntry {
  id: string;
  kind: 'rule';
  rule: NavigationRule;
}
export type MenuEntry = RouteEntry | ExternalEntry | RuleEntry;

const route = (id: string, to: string): RouteEntry => ({ id, kind: 'route', to });
const external = (id: ExternalLinkName): ExternalEntry => ({ id, kind: 'external', link: id });
const rule = (id: NavigationRule): RuleEntry => ({ id, kind: 'rule', rule: id });

export const entries = {
  login: route('login', '/login'),
  register: route('register', '/register-top?register=true'),
  dashboard: route('dashboard', '/dashboard'),
  memory: rule('memory'),
  endingnote: rule('endingnote'),
  timecapsule: rule('timecapsule'),
  connection: route('connection', '/connection'),
  userSearch: route('user-search', '/user-search'),
  mypage: route('mypage', '/mypage'),
  notification: route('notification', '/notification/list'),
  media: external('media'),
  ec: external('ec'),
  faq: external('faq'),
  corporate: external('corporate'),
  terms: external('terms'),
  usageRestrictions: external('usageRestrictions'),
  privacy: external('privacy'),
  commercialTransactions: external('commercialTransactions'),
  confidentialInformation: external('confidentialInformation'),
  feedback: external('feedback'),
} satisfies Record<string, MenuEntry>;

/** The desktop header's items. */
export const headerEntries = {
  member: [
    entries.dashboard,
    entries.memory,
    entries.endingnote,
    entries.timecapsule,
    entries.connection,
    entries.userSearch,
  ],
  guest: [entries.media, entries.faq, entries.login, entries.register],
};

/** The burger menu's group of the service itself: the header's areas, then notifications. */
export const serviceEntries: MenuEntry[] = [...headerEntries.member, entries.notification];

/** The burger menu's group "other": everything outside the member's service. */
export const otherEntries: MenuEntry[] = [
  entries.media,
  entries.ec,
  entries.faq,
  entries.corporate,
  entries.terms,
  entries.privacy,
  entries.commercialTransactions,
  entries.confidentialInformation,
];

/** The footer's policy links: privacy, usage restrictions, confidential information,
 * commercial transactions notice, company information. */
export const footerEntries: MenuEntry[] = [
  entries.privacy,
  entries.usageRestrictions,
  entries.confidentialInformation,
  entries.commercialTransactions,
  entries.corporate,
];
