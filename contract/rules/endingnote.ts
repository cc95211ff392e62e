/**
 * The ending note's sections and fields, defined once for the server (validation, sealing,
 * completion) and the screens (which control to draw). Codes are stable wire names; the
 * Japanese labels live in src/i18n/ja/translation.ftl as
 * `endingnote-<section>` (section title), `endingnote-<section>-<field>` (field label) and
 * `endingnote-<section>-<field>-<option>` (choice label). Validation messages are codes,
 * shown through `validation-<code>`.
 */
import { z } from 'zod';

export const FIELD_KINDS = [
  'input',
  'dropdown',
  'radio',
  'textarea',
  'checkbox',
  'checklist',
  'date',
  'link',
  'user-select',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

export interface FieldDefinition {
  code: string;
  kind: FieldKind;
  /** Choice codes of a dropdown, radio or checklist. */
  options?: readonly string[];
  /** Asset and account data: sealed with the server key at rest, never logged. */
  sensitive?: boolean;
}

export interface SectionDefinition {
  code: string;
  fields: readonly FieldDefinition[];
}

const YES_NO_UNDECIDED = ['yes', 'no', 'undecided'] as const;

export const ENDING_NOTE_SECTIONS = [
  {
    code: 'self',
    fields: [
      { code: 'full_name', kind: 'input' },
      { code: 'birthdate', kind: 'date' },
      {
        code: 'blood_type',
        kind: 'dropdown',
        options: ['a', 'b', 'o', 'ab', 'unknown'],
      },
      { code: 'registered_domicile', kind: 'input' },
      { code: 'family', kind: 'textarea' },
      { code: 'history', kind: 'textarea' },
    ],
  },
  {
    code: 'medical',
    fields: [
      { code: 'primary_doctor', kind: 'input' },
      { code: 'conditions', kind: 'textarea' },
      {
        code: 'care_place',
        kind: 'radio',
        options: ['home', 'facility', 'hospital', 'family_decides'],
      },
      {
        code: 'life_prolonging',
        kind: 'radio',
        options: ['wanted', 'not_wanted', 'family_decides'],
      },
      { code: 'organ_donation', kind: 'radio', options: YES_NO_UNDECIDED },
      { code: 'advance_directive', kind: 'checkbox' },
      { code: 'decision_maker', kind: 'user-select' },
    ],
  },
  {
    code: 'funeral',
    fields: [
      {
        code: 'style',
        kind: 'dropdown',
        options: ['general', 'family_only', 'one_day', 'direct_cremation', 'family_decides'],
      },
      {
        code: 'religion',
        kind: 'dropdown',
        options: ['buddhism', 'shinto', 'christianity', 'none', 'other'],
      },
      { code: 'temple', kind: 'input' },
      {
        code: 'invite',
        kind: 'checklist',
        options: ['family', 'relatives', 'friends', 'colleagues', 'neighbours'],
      },
      { code: 'funeral_home_url', kind: 'link' },
      {
        code: 'grave',
        kind: 'radio',
        options: ['family_grave', 'new_grave', 'perpetual_memorial', 'tree_burial', 'scattering'],
      },
      { code: 'grave_location', kind: 'input' },
      { code: 'wishes', kind: 'textarea' },
    ],
  },
  {
    code: 'assets',
    fields: [
      {
        code: 'held',
        kind: 'checklist',
        options: ['deposits', 'securities', 'insurance', 'pension', 'real_estate', 'debts'],
        sensitive: true,
      },
      { code: 'bank_accounts', kind: 'textarea', sensitive: true },
      { code: 'securities', kind: 'textarea', sensitive: true },
      { code: 'insurance', kind: 'textarea', sensitive: true },
      { code: 'pensions', kind: 'textarea', sensitive: true },
      { code: 'real_estate', kind: 'textarea', sensitive: true },
      { code: 'debts', kind: 'textarea', sensitive: true },
    ],
  },
  {
    code: 'digital',
    fields: [
      { code: 'devices', kind: 'textarea', sensitive: true },
      { code: 'online_accounts', kind: 'textarea', sensitive: true },
      { code: 'subscriptions', kind: 'textarea', sensitive: true },
      { code: 'password_manager_url', kind: 'link', sensitive: true },
      {
        code: 'after_death',
        kind: 'radio',
        options: ['delete', 'memorialise', 'family_decides'],
      },
    ],
  },
  {
    code: 'contacts',
    fields: [
      { code: 'notify_connections', kind: 'user-select' },
      { code: 'others', kind: 'textarea' },
      { code: 'timing', kind: 'radio', options: ['right_away', 'after_funeral'] },
    ],
  },
  {
    code: 'pets',
    fields: [
      { code: 'names', kind: 'input' },
      { code: 'caretaker', kind: 'user-select' },
      { code: 'care', kind: 'textarea' },
      { code: 'vet_url', kind: 'link' },
      { code: 'insured', kind: 'checkbox' },
    ],
  },
  {
    code: 'message',
    fields: [
      { code: 'to_family', kind: 'textarea' },
      { code: 'to_friends', kind: 'textarea' },
      { code: 'written_on', kind: 'date' },
    ],
  },
] as const satisfies readonly SectionDefinition[];

export type SectionCode = (typeof ENDING_NOTE_SECTIONS)[number]['code'];
export const SECTION_CODES = ENDING_NOTE_SECTIONS.map((section) => section.code) as [
  SectionCode,
  ...SectionCode[],
];

export const SECTION_VISIBILITIES = ['private', 'readers_now', 'readers_after_death'] as const;
export type SectionVisibility = (typeof SECTION_VISIBILITIES)[number];

/** A field's value on the wire: text, a choice code, a flag or a list of codes / user ids. */
export type FieldValue = string | boolean | string[];
export type SectionValues = Record<string, FieldValue>;

export const INPUT_MAX_LENGTH = 200;
export const TEXTAREA_MAX_LENGTH = 4000;
/** At most this many members in one user-select. */
export const USER_SELECT_MAX = 20;

export function sectionDefinition(code: string): SectionDefinition | undefined {
  return ENDING_NOTE_SECTIONS.find((section) => section.code === code);
}

export function isSectionCode(code: string): code is SectionCode {
  return sectionDefinition(code) !== undefined;
}

/** What an untouched field holds. */
export function emptyValue(kind: FieldKind): FieldValue {
  if (kind === 'checkbox') return false;
  if (kind === 'checklist' || kind === 'user-select') return [];
  return '';
}

export function isFilled(value: FieldValue | undefined): boolean {
  if (value === undefined) return false;
  if (typeof value === 'boolean') return value;
  return value.length > 0;
}

function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1;
}

function isWebLink(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function fieldSchema(field: FieldDefinition): z.ZodType<FieldValue> {
  const choice = z
    .string({ error: 'invalid_type' })
    .refine((value) => value === '' || (field.options ?? []).includes(value), {
      error: 'invalid_choice',
    });
  switch (field.kind) {
    case 'input':
      return z.string({ error: 'invalid_type' }).max(INPUT_MAX_LENGTH, { error: 'too_long' });
    case 'textarea':
      return z.string({ error: 'invalid_type' }).max(TEXTAREA_MAX_LENGTH, { error: 'too_long' });
    case 'dropdown':
    case 'radio':
      return choice;
    case 'checkbox':
      return z.boolean({ error: 'invalid_type' });
    case 'checklist':
      return z
        .array(z.string({ error: 'invalid_type' }), { error: 'invalid_type' })
        .refine((codes) => codes.every((code) => (field.options ?? []).includes(code)), {
          error: 'invalid_choice',
        })
        .refine((codes) => new Set(codes).size === codes.length, { error: 'duplicate' });
    case 'date':
      return z
        .string({ error: 'invalid_type' })
        .refine((text) => text === '' || isCalendarDate(text), { error: 'invalid_date' });
    case 'link':
      return z
        .string({ error: 'invalid_type' })
        .max(INPUT_MAX_LENGTH, { error: 'too_long' })
        .refine((text) => text === '' || isWebLink(text), { error: 'invalid_url' });
    case 'user-select':
      return z
        .array(z.string({ error: 'invalid_type' }).regex(UUID, { error: 'invalid_user' }), {
          error: 'invalid_type',
        })
        .max(USER_SELECT_MAX, { error: 'too_many' })
        .refine((ids) => new Set(ids).size === ids.length, { error: 'duplicate' });
  }
}

/**
 * The schema of one section's values. Every field may be left out (it is then empty);
 * a field the section does not have is refused as `unknown_field`.
 */
export function sectionValuesSchema(section: SectionDefinition) {
  const shape = Object.fromEntries(
    section.fields.map((field) => [field.code, fieldSchema(field).optional()]),
  );
  return z.strictObject(shape, { error: 'invalid_type' });
}

export interface FieldIssue {
  /** The field code, or the unknown key that was sent. */
  field: string;
  code: string;
}

/** Validates a section's values; answers the complete values (empty where left out) or issues. */
export function validateSectionValues(
  section: SectionDefinition,
  input: unknown,
): { ok: true; values: SectionValues } | { ok: false; issues: FieldIssue[] } {
  const result = sectionValuesSchema(section).safeParse(input);
  if (!result.success) {
    const issues = result.error.issues.flatMap((issue): FieldIssue[] =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({ field: key, code: 'unknown_field' }))
        : [{ field: issue.path.map(String).join('.'), code: issue.message }],
    );
    return { ok: false, issues };
  }
  const parsed = result.data as Record<string, FieldValue | undefined>;
  const values = Object.fromEntries(
    section.fields.map((field) => [field.code, parsed[field.code] ?? emptyValue(field.kind)]),
  );
  return { ok: true, values };
}

/** How much of a section is filled in: the completion indicator. */
export function sectionCompletion(
  section: SectionDefinition,
  values: SectionValues,
): { filled: number; total: number } {
  return {
    filled: section.fields.filter((field) => isFilled(values[field.code])).length,
    total: section.fields.length,
  };
}

/** The fields of a section whose values are sealed at rest. */
export function sensitiveFieldCodes(section: SectionDefinition): string[] {
  return section.fields.filter((field) => field.sensitive).map((field) => field.code);
}

/** A Fluent lookup: `(id, args) => text` (the server's bundle or the client's `useT()`). */
export type Translate = (id: string, args?: Record<string, string>) => string;

/**
 * How a field's value reads to a person (the print export and the readers' view): choice
 * labels, yes/no, member names, a Japanese date; '' when empty. `nameOf` answers a chosen
 * member's display name, or undefined for a member it does not know.
 */
export function fieldValueText(
  t: Translate,
  sectionCode: string,
  field: FieldDefinition,
  value: FieldValue,
  nameOf: (userId: string) => string | undefined,
): string {
  const optionLabel = (option: string) => t(`endingnote-${sectionCode}-${field.code}-${option}`);
  const list = (items: string[]) => items.join(t('endingnote-list-separator'));
  switch (field.kind) {
    case 'checkbox':
      return t(value ? 'endingnote-yes' : 'endingnote-no');
    case 'dropdown':
    case 'radio':
      return value ? optionLabel(value as string) : '';
    case 'checklist':
      return list((value as string[]).map(optionLabel));
    case 'user-select':
      return list((value as string[]).flatMap((id) => nameOf(id) ?? []));
    case 'date': {
      if (!value) return '';
      const [year = '', month = '', day = ''] = (value as string).split('-');
      return t('endingnote-date', { year, month: String(Number(month)), day: String(Number(day)) });
    }
    default:
      return value as string;
  }
}
