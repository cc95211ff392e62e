/**
 * Addresses of the pages that live outside the SPA (the menu's external
 * links). Each can be set at build time with the VITE_*
 * variable named beside it; the defaults point at the service's own domain.
 */
const env = import.meta.env;

function configured(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

const SITE = configured(env.VITE_CORPORATE_URL, 'https://shinobu.example.jp');

export const externalLinks = {
  media: configured(env.VITE_MEDIA_URL, `${SITE}/media`),
  ec: configured(env.VITE_EC_URL, `${SITE}/shop`),
  faq: configured(env.VITE_FAQ_URL, `${SITE}/faq`),
  corporate: SITE,
  terms: configured(env.VITE_TERMS_URL, `${SITE}/terms`),
  usageRestrictions: configured(env.VITE_USAGE_RESTRICTIONS_URL, `${SITE}/usage-restrictions`),
  privacy: configured(env.VITE_PRIVACY_URL, `${SITE}/privacy`),
  commercialTransactions: configured(env.VITE_COMMERCIAL_TRANSACTIONS_URL, `${SITE}/tokushoho`),
  confidentialInformation: configured(
    env.VITE_CONFIDENTIAL_INFORMATION_URL,
    `${SITE}/confidential-information`,
  ),
  feedback: configured(env.VITE_FEEDBACK_URL, `${SITE}/contact`),
  identityVerificationHelp: configured(
    env.VITE_IDENTITY_VERIFICATION_HELP_URL,
    `${SITE}/help/identity-verification`,
  ),
  appStore: configured(env.VITE_APP_STORE_URL, 'https://apps.apple.com/jp/app/shinobu'),
  googlePlay: configured(
    env.VITE_GOOGLE_PLAY_URL,
    'https://play.google.com/store/apps/details?id=jp.shinobu.app',
  ),
} as const;

export type ExternalLinkName = keyof typeof externalLinks;

/** Attributes of every external link: a new tab that cannot reach back into this page. */
export const NEW_TAB_LINK = { target: '_blank', rel: 'noopener noreferrer' } as const;
