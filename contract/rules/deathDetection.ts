import { z } from 'zod';
import { relationshipSchema } from './social';
import { isCalendarDate } from './timecapsule';

/**
 * Wire shapes of death detection and identity verification (docs/death-detection.md),
 * shared by the server's routes and the client. Messages are validation codes.
 */

export const CONFIRMATION_RULE_VALUES = ['any_one', 'two'] as const;
export type ConfirmationRuleValue = (typeof CONFIRMATION_RULE_VALUES)[number];
export const IDENTITY_STATUS_VALUES = ['INITIAL', 'PROGRESS', 'ACTIVE', 'REVOKED'] as const;
export type IdentityStatusName = (typeof IDENTITY_STATUS_VALUES)[number];
export const DEATH_STATE_VALUES = ['alive', 'suspected', 'grace', 'released'] as const;
export type DeathStateValue = (typeof DEATH_STATE_VALUES)[number];
export const SIGNAL_SOURCE_VALUES = [
  'certificate',
  'integration',
  'administrator',
  'inactivity',
] as const;
export type SignalSourceValue = (typeof SIGNAL_SOURCE_VALUES)[number];

export const MAX_ADMINISTRATORS = 5;

/** What a release does with the member's own memorial page (docs/after-death.md). */
export const PAGE_AFTER_DEATH_VALUES = ['mourning', 'unchanged', 'hidden'] as const;
export type PageAfterDeath = (typeof PAGE_AFTER_DEATH_VALUES)[number];
/** Whether the account is kept as a memorial or deleted some days after the release. */
export const ACCOUNT_AFTER_DEATH_VALUES = ['memorial', 'delete'] as const;
export type AccountAfterDeath = (typeof ACCOUNT_AFTER_DEATH_VALUES)[number];
/** A deletion waits at least a month, so a release by mistake can still be undone. */
export const DELETE_AFTER_DAYS_MIN = 30;
export const DELETE_AFTER_DAYS_MAX = 365;
export const CHECK_IN_PERIOD_DAYS_MIN = 30;
export const CHECK_IN_PERIOD_DAYS_MAX = 1095;
export const REPORT_NOTE_MAX_LENGTH = 500;
/** Base64 of a signature; generous for RSA-4096. */
const SIGNATURE_MAX_LENGTH = 2048;
const PEM_MAX_LENGTH = 32_768;

const userId = z.uuid({ error: 'user_id_invalid' });

/** PUT /v1/fpos/death_settings */
/** The member's choices for after their death; the days only with `delete`. */
export const afterDeathSchema = z.object({
  page: z.enum(PAGE_AFTER_DEATH_VALUES, { error: 'page_invalid' }),
  account: z.enum(ACCOUNT_AFTER_DEATH_VALUES, { error: 'account_invalid' }),
  delete_after_days: z
    .number({ error: 'delete_after_days_invalid' })
    .int('delete_after_days_invalid')
    .nullable(),
  /** One of the administrators named in the same body, or null for no archive. */
  archive_recipient_user_id: userId.nullable(),
});
export type AfterDeathBody = z.infer<typeof afterDeathSchema>;

export const deathSettingsSchema = z.object({
  rule: z.enum(CONFIRMATION_RULE_VALUES, { error: 'rule_invalid' }),
  administrator_user_ids: z.array(userId, { error: 'administrator_user_ids_invalid' }),
  check_in_period_days: z
    .number({ error: 'check_in_period_days_invalid' })
    .int('check_in_period_days_invalid')
    .nullable(),
  /** Left out: the choices stay as they are. */
  after_death: afterDeathSchema.optional(),
});
export type DeathSettingsBody = z.infer<typeof deathSettingsSchema>;

/** POST /v1/fpos/cancel_death_suspected_at */
export const cancelSuspicionSchema = z.object({ death_suspected_user_id: userId });

const restorationToken = z.string({ error: 'required' }).min(1, 'required').max(200, 'too_long');

/**
 * POST /v1/account_restoration: the mailed link's token and the member's password; without a
 * password the link must have been proven with a provider the member signs in with.
 */
export const accountRestorationSchema = z.object({
  token: restorationToken,
  password: z.string().min(1, 'required').max(1000, 'too_long').optional(),
});

/** POST /v1/account_restoration/link: what the mailed link needs. */
export const restorationLinkSchema = z.object({ token: restorationToken });

/** POST /v1/account_restoration/proof: the link and the provider assertion of a new sign-in. */
export const restorationProofSchema = z.object({
  token: restorationToken,
  assertion: z.string({ error: 'required' }).min(1, 'required').max(4000, 'too_long'),
});

/** POST /v1/fpos/report_death_suspected */
export const administratorReportSchema = z.object({
  user_id: userId,
  note: z.string().max(REPORT_NOTE_MAX_LENGTH, 'note_too_long').optional(),
  /** An uploaded image (e.g. a notice of death), checked like every upload when reported. */
  document_image_name: z
    .string({ error: 'image_name_invalid' })
    .max(200, 'image_name_invalid')
    .optional(),
});

/** YYYY-MM-DD, a real calendar date (the future is checked by the server with its clock). */
export const dateOfDeathSchema = z
  .string({ error: 'date_invalid' })
  .refine(isCalendarDate, 'date_invalid');

/** POST /v1/fpos/death_confirmation/sign_request */
export const signRequestSchema = z.object({
  death_suspected_user_id: userId,
  date_of_death: dateOfDeathSchema,
  relationship: relationshipSchema,
});

/** POST /v1/fpos/death_confirmation */
export const deathConfirmationSchema = signRequestSchema.extend({
  sign_tag: z
    .string({ error: 'sign_tag_unknown' })
    .min(1, 'sign_tag_unknown')
    .max(64, 'sign_tag_unknown'),
  sign_content: z.string({ error: 'sign_content_mismatch' }).max(4096, 'sign_content_mismatch'),
  signature: z
    .string({ error: 'signature_invalid' })
    .min(1, 'signature_invalid')
    .max(SIGNATURE_MAX_LENGTH, 'signature_invalid'),
});

/** POST /v1/identity_verification/certificate */
export const certificateRegistrationSchema = z.object({
  challenge_id: z.string({ error: 'challenge_unknown' }).max(64, 'challenge_unknown'),
  certificate_pem: z
    .string({ error: 'certificate_invalid' })
    .min(1, 'certificate_invalid')
    .max(PEM_MAX_LENGTH, 'certificate_invalid'),
  chain_pem: z.string().max(PEM_MAX_LENGTH, 'certificate_invalid').optional(),
  signature: z
    .string({ error: 'signature_invalid' })
    .min(1, 'signature_invalid')
    .max(SIGNATURE_MAX_LENGTH, 'signature_invalid'),
});

/** POST /v1/fpos/verify_my_auth_access_token */
export const integrationLinkSchema = z.object({
  client_id: z
    .string({ error: 'client_id_invalid' })
    .min(1, 'client_id_invalid')
    .max(100, 'client_id_invalid'),
  fpos_user_id: z
    .string({ error: 'fpos_user_id_invalid' })
    .min(1, 'fpos_user_id_invalid')
    .max(200, 'fpos_user_id_invalid'),
  access_token: z
    .string({ error: 'access_token_invalid' })
    .min(1, 'access_token_invalid')
    .max(4096, 'access_token_invalid'),
  /** The link proof's expiry, Unix time in seconds, as the integration signed it. */
  expires: z
    .number({ error: 'expires_invalid' })
    .int('expires_invalid')
    .positive('expires_invalid')
    .max(Number.MAX_SAFE_INTEGER, 'expires_invalid'),
  /** HMAC-SHA256 of the link with the integration's secret, lowercase hex (docs/integrations.md). */
  signature: z.string({ error: 'signature_invalid' }).regex(/^[0-9a-f]{64}$/, 'signature_invalid'),
});

/** POST /v1/fpos/integration/report_death_suspected */
export const integrationReportSchema = z.object({
  fpos_user_id: z
    .string({ error: 'fpos_user_id_invalid' })
    .min(1, 'fpos_user_id_invalid')
    .max(200, 'fpos_user_id_invalid'),
  note: z.string().max(REPORT_NOTE_MAX_LENGTH, 'note_too_long').optional(),
});

/** POST and DELETE /v1/device_tokens */
export const deviceTokenSchema = z.object({
  token: z.string({ error: 'token_invalid' }).min(1, 'token_invalid').max(4096, 'token_invalid'),
  platform: z.enum(['ios', 'android'], { error: 'platform_invalid' }),
});
export const deviceTokenDeleteSchema = deviceTokenSchema.pick({ token: true });
