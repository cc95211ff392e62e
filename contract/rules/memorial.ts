/**
 * Memorial-page wire schemas shared by the server routes and the client forms (snake_case
 * requests). Every message is a stable validation code; the client shows `validation-<code>`.
 */
import { z } from 'zod';
import { kanaSchema, nameSchema, requiredText, tokyoToday } from './account';
import { namesAChange, NOTHING_TO_CHANGE } from './changes';
import {
  ANIMAL_KIND_MAX_LENGTH,
  CAPTION_MAX_LENGTH,
  CONDOLENCE_MAX_LENGTH,
  HISTORY_BODY_MAX_LENGTH,
  OBJECT_NAME_MAX_LENGTH,
  PRIVACY_SETTINGS,
} from './memorialLimits';

export * from './memorialLimits';

const dateSchema = z.iso.date({ error: 'invalid_date' });
const objectName = z.string().max(OBJECT_NAME_MAX_LENGTH, 'too_long');
/** Kana may be left empty (a pet's family name); when given it must be hiragana. */
const optionalKana = z.union([z.literal(''), kanaSchema]);
const optionalName = z.union([z.literal(''), nameSchema]);

export interface DateOptions {
  /** Today's date in Japan; the server passes its injected clock. */
  today?: () => string;
}

/** Profile fields an admin may set; every one optional so that PATCH sends only changes. */
export function pageProfileShape(options: DateOptions = {}) {
  const today = options.today ?? (() => tokyoToday(new Date()));
  const pastDate = dateSchema.refine((value) => value <= today(), 'date_in_future');
  return {
    last_name: optionalName.optional(),
    first_name: nameSchema.optional(),
    last_name_kana: optionalKana.optional(),
    first_name_kana: kanaSchema.optional(),
    photo_name: objectName.nullish(),
    birth_date: pastDate.nullish(),
    death_date: pastDate.nullish(),
    animal_kind: requiredText(ANIMAL_KIND_MAX_LENGTH).nullish(),
    privacy: z.enum(PRIVACY_SETTINGS, { error: 'invalid_choice' }).optional(),
    searchable: z.boolean({ error: 'invalid_type' }).optional(),
  };
}

const deathNotBeforeBirth = (value: { birth_date?: string | null; death_date?: string | null }) =>
  !value.birth_date || !value.death_date || value.death_date >= value.birth_date;
const deathIssue = { error: 'death_before_birth', path: ['death_date'] };

/** PATCH /v1/memorial_page/{id}. */
export const updatePageSchema = (options: DateOptions = {}) =>
  z
    .object(pageProfileShape(options))
    .refine(namesAChange, NOTHING_TO_CHANGE)
    .refine(deathNotBeforeBirth, deathIssue);

/** POST /v1/memorial_page: a page for another person (otherAdmin) or for a pet. */
export const createPageSchema = (options: DateOptions = {}) => {
  const shape = pageProfileShape(options);
  return z
    .discriminatedUnion(
      'type',
      [
        z.object({
          ...shape,
          type: z.literal('other'),
          last_name: nameSchema,
          first_name: nameSchema,
          last_name_kana: kanaSchema,
          first_name_kana: kanaSchema,
        }),
        z.object({
          ...shape,
          type: z.literal('pet'),
          first_name: nameSchema,
          first_name_kana: kanaSchema,
          animal_kind: requiredText(ANIMAL_KIND_MAX_LENGTH),
        }),
      ],
      { error: 'invalid_choice' },
    )
    .refine(deathNotBeforeBirth, deathIssue);
};

export const albumPhotoCreateSchema = z.object({
  image_name: requiredText(OBJECT_NAME_MAX_LENGTH),
  caption: z.string().trim().max(CAPTION_MAX_LENGTH, 'too_long').default(''),
  taken_on: dateSchema.nullish(),
});

export const albumPhotoUpdateSchema = z
  .object({
    caption: z.string().trim().max(CAPTION_MAX_LENGTH, 'too_long').optional(),
    taken_on: dateSchema.nullish(),
  })
  .refine(namesAChange, NOTHING_TO_CHANGE);

export const historyCreateSchema = z.object({
  occurred_on: dateSchema,
  body: requiredText(HISTORY_BODY_MAX_LENGTH),
  image_name: objectName.nullish(),
});

export const historyUpdateSchema = z
  .object({
    occurred_on: dateSchema.optional(),
    body: requiredText(HISTORY_BODY_MAX_LENGTH).optional(),
    image_name: objectName.nullish(),
  })
  .refine(namesAChange, NOTHING_TO_CHANGE);

export const condolenceCreateSchema = z.object({ body: requiredText(CONDOLENCE_MAX_LENGTH) });
