/**
 * Time-capsule letter wire schemas shared by the server routes and the compose form. Messages
 * are stable validation codes (the client shows Fluent id `validation-<code>`). Rules that
 * need the server (the clock, who is a connection) are checked in server/domain/timecapsule.
 */
import { z } from 'zod';
import { emailSchema, nameSchema, requiredText } from './account';

export const LETTER_TITLE_MAX_LENGTH = 100;
export const LETTER_BODY_MAX_LENGTH = 10_000;
export const LETTER_MAX_RECIPIENTS = 20;
export const LETTER_MAX_ADMINS = 5;
export const LETTER_MAX_PHOTOS = 10;
/** Up to 100 years after a death (a delay in days, or an anniversary in years). */
export const LETTER_MAX_DELAY_DAYS = 36_500;
export const LETTER_MAX_ANNIVERSARY_YEARS = 100;

/** Japan has one offset all year (no daylight saving time). */
export const JAPAN_OFFSET_MS = 9 * 60 * 60 * 1000;

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const OFFSET_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A date-time as the compose form sends it: Japan local time without an offset
 * ("2027-04-01T09:00", what `<input type="datetime-local">` gives), or any ISO time with an
 * offset. Answers the instant, or undefined when it is not a real date-time.
 */
export function parseJapanDateTime(value: string): Date | undefined {
  const local = LOCAL_DATE_TIME.exec(value);
  if (local) {
    const [year, month, day, hour, minute, second] = local
      .slice(1)
      .map((part) => Number(part ?? 0)) as number[];
    const utc = Date.UTC(year!, month! - 1, day!, hour!, minute!, second);
    const back = new Date(utc);
    if (
      back.getUTCMonth() !== month! - 1 ||
      back.getUTCDate() !== day ||
      back.getUTCHours() !== hour ||
      back.getUTCMinutes() !== minute
    )
      return undefined;
    return new Date(utc - JAPAN_OFFSET_MS);
  }
  if (!OFFSET_DATE_TIME.test(value)) return undefined;
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

/** An instant as the compose form shows it: Japan local time `YYYY-MM-DDTHH:mm`. */
export function japanDateTimeInputOf(instant: Date): string {
  return new Date(instant.getTime() + JAPAN_OFFSET_MS).toISOString().slice(0, 16);
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const intInRange = (min: number, max: number) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? 'required' : 'number_invalid') })
    .int('number_invalid')
    .min(min, 'number_out_of_range')
    .max(max, 'number_out_of_range');

/** A connection of the writer (the server checks the connection). */
const memberRecipientSchema = z.object({
  kind: z.literal('member'),
  user_id: z.uuid('required'),
});

/** Someone not yet a member: the letter's mail guides them through registration or login. */
const guestRecipientSchema = z.object({
  kind: z.literal('guest'),
  last_name: nameSchema,
  first_name: nameSchema,
  email: emailSchema,
});

export const letterRecipientSchema = z.discriminatedUnion('kind', [
  memberRecipientSchema,
  guestRecipientSchema,
]);

/**
 * When the letter goes out: at a date-time; on the writer's confirmed death after a delay in
 * days (0 = at once); on the N-th anniversary of the death (the seventh-year memorial is 6);
 * or on a fixed date (a child's 20th birthday), once the death is confirmed.
 */
export const letterDeliverySchema = z.discriminatedUnion('rule', [
  z.object({
    rule: z.literal('date'),
    send_at: requiredText(40).refine(
      (value) => parseJapanDateTime(value) !== undefined,
      'datetime_invalid',
    ),
  }),
  z.object({ rule: z.literal('death'), delay_days: intInRange(0, LETTER_MAX_DELAY_DAYS) }),
  z.object({
    rule: z.literal('death_anniversary'),
    anniversary_years: intInRange(1, LETTER_MAX_ANNIVERSARY_YEARS),
  }),
  z.object({
    rule: z.literal('date_after_death'),
    after_death_date: requiredText(10).refine(isCalendarDate, 'date_invalid'),
  }),
]);

/** Object names of uploaded photos; the server checks their form against its object store. */
const photoNameSchema = requiredText(200);

/** POST /v1/time_capsule_letter and PUT /v1/time_capsule_letter/{id}. */
export const letterInputSchema = z.object({
  title: requiredText(LETTER_TITLE_MAX_LENGTH),
  body: requiredText(LETTER_BODY_MAX_LENGTH),
  recipients: z
    .array(letterRecipientSchema, { error: 'required' })
    .min(1, 'required')
    .max(LETTER_MAX_RECIPIENTS, 'too_many'),
  admin_user_ids: z.array(z.uuid('required')).max(LETTER_MAX_ADMINS, 'too_many').default([]),
  photo_names: z.array(photoNameSchema).max(LETTER_MAX_PHOTOS, 'too_many').default([]),
  delivery: letterDeliverySchema,
});

export type LetterInput = z.infer<typeof letterInputSchema>;
export type LetterDelivery = z.infer<typeof letterDeliverySchema>;
export type LetterRecipientInput = z.infer<typeof letterRecipientSchema>;

/** POST /v1/time_capsule_letter/claim: the token of a non-member's letter link. */
export const letterClaimSchema = z.object({ token: requiredText(200) });
