/**
 * Wire schemas of the social area (connections, user search, notifications, my page),
 * shared by the server routes and the client. Messages are stable validation codes (the
 * client shows Fluent id `validation-<code>`).
 */
import { z } from 'zod';
import {
  birthdateSchema,
  kanaSchema,
  nameSchema,
  prefectureSchema,
  sexCodeSchema,
  tokyoToday,
} from './account';
import { namesAChange, NOTHING_TO_CHANGE } from './changes';

/** Shown through Fluent ids `relationship-<value>`; mirrors RELATIONSHIPS of the connections table. */
export const RELATIONSHIP_VALUES = [
  'family',
  'relative',
  'friend',
  'acquaintance',
  'other',
] as const;
export type RelationshipValue = (typeof RELATIONSHIP_VALUES)[number];

export const relationshipSchema = z.enum(RELATIONSHIP_VALUES, { error: 'relationship_invalid' });

/** POST /v1/connection/requests */
export const sendRequestSchema = z.object({
  to_user_id: z.uuid({ error: 'user_id_invalid' }),
  relationship: relationshipSchema,
});

/** Accepting a request and changing a connection both carry the member's own relationship. */
export const relationshipBodySchema = z.object({ relationship: relationshipSchema });

/** Every kind of notification (payloads: server/domain/social/notifications.ts). */
export const NOTIFICATION_KINDS = [
  'connection_requested',
  'connection_accepted',
  'admin_added',
  'condolence_posted',
  'letter_delivered',
  'anniversary_coming',
  'death_suspected',
  'death_cancelled',
  'death_confirmed',
  'death_administrator_named',
  'death_restored',
  'data_export_requested',
  'data_export_ready',
  'death_choices_carried_out',
  'death_archive_ready',
  'death_account_deleted',
] as const;
export type NotificationKindValue = (typeof NOTIFICATION_KINDS)[number];

export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 50;

/** `page` counts from 1; query-string numbers arrive as text. */
export const pagingShape = {
  page: z.coerce
    .number({ error: 'page_invalid' })
    .int('page_invalid')
    .min(1, 'page_invalid')
    .max(1000, 'page_invalid')
    .default(1),
  per_page: z.coerce
    .number({ error: 'per_page_invalid' })
    .int('per_page_invalid')
    .min(1, 'per_page_invalid')
    .max(PER_PAGE_MAX, 'per_page_invalid')
    .default(PER_PAGE_DEFAULT),
};
export const pagingSchema = z.object(pagingShape);

/** Longest search text; names are far shorter, the cap bounds the work per query. */
export const SEARCH_QUERY_MAX_LENGTH = 50;

/** GET /v1/user_search: `cursor` is the `nextCursor` of the previous page, as it came. */
export const userSearchSchema = z.object({
  q: z
    .string({ error: 'required' })
    .trim()
    .min(1, 'required')
    .max(SEARCH_QUERY_MAX_LENGTH, 'too_long'),
  cursor: z.string().max(1000, 'cursor_invalid').optional(),
  per_page: pagingShape.per_page,
});

/**
 * PATCH /v1/mypage/profile: any of the fields, each with the registration's rules. Email and
 * password changes belong to the accounts area.
 */
export const profileUpdateSchema = (options: { today?: () => string } = {}) => {
  const today = options.today ?? (() => tokyoToday(new Date()));
  return z
    .object({
      last_name: nameSchema,
      first_name: nameSchema,
      last_name_kana: kanaSchema,
      first_name_kana: kanaSchema,
      address: prefectureSchema,
      birthdate: birthdateSchema(today),
      sex_code: sexCodeSchema,
      /** The object name an icon upload was signed for; null removes the icon. */
      icon_name: z.string().max(200, 'too_long').nullable(),
      searchable: z.boolean({ error: 'boolean_invalid' }),
    })
    .partial()
    .refine(namesAChange, NOTHING_TO_CHANGE);
};
export type ProfileUpdateInput = z.infer<ReturnType<typeof profileUpdateSchema>>;
