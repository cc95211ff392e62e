/**
 * Account wire schemas shared by the server routes and the client forms. Every message is a
 * stable validation code (the client shows Fluent id `validation-<code>`); the server answers
 * them as 422 `errors: [{ field, code }]` with the snake_case request field.
 */
import { z } from 'zod';
import { isPrefectureName } from './prefectures';
import { tokyoToday } from './tokyoDate';

export const VALIDATION_CODES = [
  'required',
  'email_invalid',
  'password_too_short',
  'password_too_common',
  'password_too_long',
  'kana_hiragana_only',
  'prefecture_invalid',
  'birthdate_invalid',
  'birthdate_in_future',
  'too_long',
  'sex_code_invalid',
] as const;
export type ValidationCode = (typeof VALIDATION_CODES)[number];

export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome; the cap only bounds the hashing work per request. */
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 50;
export const EMAIL_MAX_LENGTH = 254;
/** Oldest accepted birthdate: earlier values are typing mistakes, not people. */
export const BIRTHDATE_MIN = '1900-01-01';

/** 1 male, 2 female, 3 other, 9 prefers not to say. */
export const SEX_CODES = [1, 2, 3, 9] as const;
export type SexCode = (typeof SEX_CODES)[number];

/** Hiragana block U+3040–U+309F only (no katakana, no spaces, no U+30FC). */
const HIRAGANA_ONLY = /^[\u3040-\u309f]+$/u;
/** Pragmatic syntax check: one @, no spaces, a dot in the domain. Delivery proves the rest. */
const EMAIL_SYNTAX = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/u;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A missing value says `required`; a value of the wrong type says `fallback`. */
const missingOr = (fallback: ValidationCode) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? 'required' : fallback;

/** A trimmed, non-empty text of at most `max` characters. */
export const requiredText = (max: number) =>
  z
    .string({ error: missingOr('required') })
    .trim()
    .min(1, { error: 'required', abort: true })
    .max(max, { error: 'too_long', abort: true });

export const emailSchema = requiredText(EMAIL_MAX_LENGTH).regex(EMAIL_SYNTAX, 'email_invalid');

/** Length rules only; the server also refuses passwords from its common-password list. */
export const passwordSchema = z
  .string({ error: missingOr('required') })
  .min(1, { error: 'required', abort: true })
  .min(PASSWORD_MIN_LENGTH, { error: 'password_too_short', abort: true })
  .max(PASSWORD_MAX_LENGTH, { error: 'password_too_long', abort: true });

export const nameSchema = requiredText(NAME_MAX_LENGTH);

export const kanaSchema = requiredText(NAME_MAX_LENGTH).regex(HIRAGANA_ONLY, 'kana_hiragana_only');

export const prefectureSchema = z
  .string({ error: missingOr('prefecture_invalid') })
  .min(1, { error: 'required', abort: true })
  .refine(isPrefectureName, 'prefecture_invalid');

/** Accepts 1, 2, 3, 9 as numbers or as their one-digit strings (form values). */
export const sexCodeSchema = z.preprocess(
  (value) => (typeof value === 'string' && /^\d$/.test(value) ? Number(value) : value),
  z.union(
    SEX_CODES.map((code) => z.literal(code)),
    { error: missingOr('sex_code_invalid') },
  ),
);

export { tokyoToday } from './tokyoDate';

function isCalendarDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** A real calendar date (YYYY-MM-DD) from 1900 up to today in Japan. */
export const birthdateSchema = (today: () => string) =>
  requiredText(10)
    .refine((value) => isCalendarDate(value) && value >= BIRTHDATE_MIN, {
      error: 'birthdate_invalid',
      abort: true,
    })
    .refine((value) => value <= today(), 'birthdate_in_future');

export interface RegistrationSchemaOptions {
  /** Today's date in Japan; the server passes its injected clock. */
  today?: () => string;
  /** Replaces the password rule (the server adds its common-password check). */
  password?: z.ZodType<string>;
}

/** The fields every registration variant shares, as they travel on the wire (snake_case). */
export function registrationShape(options: RegistrationSchemaOptions = {}) {
  const today = options.today ?? (() => tokyoToday(new Date()));
  return {
    username: nameSchema,
    email: emailSchema,
    password: options.password ?? passwordSchema,
    first_name: nameSchema,
    last_name: nameSchema,
    first_name_kana: kanaSchema,
    last_name_kana: kanaSchema,
    address: prefectureSchema,
    birthdate: birthdateSchema(today),
    sex_code: sexCodeSchema,
    /** The object name an upload was signed for; the server swaps it for a signed GET URL. */
    user_icon_url: z.string().max(200, 'too_long').nullish(),
  };
}

/** POST /v1/user. `admin_pet_id` is the pet page a registration in pet mode will administer. */
export const registrationSchema = (options: RegistrationSchemaOptions = {}) =>
  z.object({
    ...registrationShape(options),
    admin_pet_id: z.string().max(100, 'too_long').nullish(),
  });

/** POST /v1/user/create_inflow_user: the partner-inflow variant needs its inflow id. */
export const inflowRegistrationSchema = (options: RegistrationSchemaOptions = {}) =>
  z.object({ ...registrationShape(options), inflow_id: requiredText(100) });

/** The provider identity part of the external-provider registration variant. */
export const providerRequestSchema = z.object({
  provider_name: requiredText(30),
  provider_user_id: requiredText(255),
  access_token: requiredText(4096),
  expired_date: z.string().max(40, 'too_long').nullish(),
});

/** POST /v1/user/create_user_with_external_provider. */
export const externalRegistrationSchema = (options: RegistrationSchemaOptions = {}) =>
  z.object({
    user_request: z.object({
      ...registrationShape(options),
      // The provider vouches for the person; a password is optional for later e-mail sign-in.
      password: (options.password ?? passwordSchema).optional(),
      admin_pet_id: z.string().max(100, 'too_long').nullish(),
    }),
    provider_request: providerRequestSchema,
  });

/** POST /v1/login (form-encoded) and the credentials form: both present, nothing more. */
export const loginSchema = z.object({
  username: requiredText(EMAIL_MAX_LENGTH),
  password: z
    .string({ error: missingOr('required') })
    .min(1, 'required')
    .max(PASSWORD_MAX_LENGTH * 4, 'too_long'),
  /** The token of a mailed unlock link: the sign-in is not held back by the account's lock. */
  unlock_token: z.string().max(200).optional(),
});

export const passwordResetRequestSchema = z.object({ email: emailSchema });

export const passwordResetConfirmSchema = (password: z.ZodType<string> = passwordSchema) =>
  z.object({ token: requiredText(200), password });

export type RegistrationInput = z.infer<ReturnType<typeof registrationSchema>>;
export type LoginInput = z.infer<typeof loginSchema>;

/** The current password as typed: checked against the stored hash, so only present and bounded. */
const currentPasswordSchema = loginSchema.shape.password;

/** POST /v1/mypage/password: the current password and a new one under the password policy. */
export const passwordChangeSchema = (password: z.ZodType<string> = passwordSchema) =>
  z.object({ current_password: currentPasswordSchema, new_password: password });

/** POST /v1/mypage/email: the new address, confirmed by the current password. */
export const emailChangeSchema = z.object({
  current_password: currentPasswordSchema,
  new_email: emailSchema,
});

export const emailChangeConfirmSchema = z.object({ token: requiredText(200) });
