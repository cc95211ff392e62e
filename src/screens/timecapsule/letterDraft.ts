import type { FieldProblem } from '../../services/api/timecapsule';
import {
  japanDateTimeInputOf,
  letterInputSchema,
  type LetterDelivery,
  type LetterInput,
} from '../../../contract/rules/timecapsule';
import type { LetterPhoto, WriterView } from '../../../contract/timecapsule';

/**
 * The compose form's state and its translation to the wire: what is typed stays text (a
 * number field may hold anything while it is typed) until the letter is checked with the
 * schema the server uses.
 */
export type DeliveryRule = LetterDelivery['rule'];
export const DELIVERY_RULES: readonly DeliveryRule[] = [
  'date',
  'death',
  'death_anniversary',
  'date_after_death',
];

export interface GuestDraft {
  /** Keeps a row's inputs in place while rows above it are removed. */
  key: number;
  lastName: string;
  firstName: string;
  email: string;
}

export interface LetterDraft {
  title: string;
  body: string;
  memberIds: string[];
  guests: GuestDraft[];
  adminIds: string[];
  photos: LetterPhoto[];
  rule: DeliveryRule;
  sendAt: string;
  delayDays: string;
  anniversaryYears: string;
  afterDeathDate: string;
}

export type { FieldProblem };

export const emptyDraft = (): LetterDraft => ({
  title: '',
  body: '',
  memberIds: [],
  guests: [],
  adminIds: [],
  photos: [],
  rule: 'date',
  sendAt: '',
  delayDays: '0',
  anniversaryYears: '',
  afterDeathDate: '',
});

/** The form as the writer left it, from the writer's view of an unsent letter. */
export function draftOf(letter: WriterView): LetterDraft {
  return {
    ...emptyDraft(),
    title: letter.title,
    body: letter.body,
    memberIds: letter.recipients.flatMap((r) =>
      r.kind === 'member' && r.userId ? [r.userId] : [],
    ),
    guests: letter.recipients
      .filter((r) => r.kind === 'guest')
      .map((r, index) => ({
        key: index,
        lastName: r.lastName,
        firstName: r.firstName,
        email: r.email ?? '',
      })),
    adminIds: letter.adminUserIds,
    photos: letter.photos,
    rule: letter.rule,
    sendAt:
      letter.rule === 'date' && letter.sendDate
        ? japanDateTimeInputOf(new Date(letter.sendDate))
        : '',
    delayDays: String(letter.delayDays ?? 0),
    anniversaryYears: letter.anniversaryYears === null ? '' : String(letter.anniversaryYears),
    afterDeathDate: letter.afterDeathDate ?? '',
  };
}

/** A typed number, or undefined while the field is empty (the schema then says `required`). */
const numberOf = (text: string) => (text.trim() === '' ? undefined : Number(text));

function deliveryOf(draft: LetterDraft): Record<string, unknown> {
  switch (draft.rule) {
    case 'date':
      return { rule: 'date', send_at: draft.sendAt };
    case 'death':
      return { rule: 'death', delay_days: numberOf(draft.delayDays) };
    case 'death_anniversary':
      return { rule: 'death_anniversary', anniversary_years: numberOf(draft.anniversaryYears) };
    case 'date_after_death':
      return { rule: 'date_after_death', after_death_date: draft.afterDeathDate };
  }
}

/**
 * The request body the draft stands for, unchecked. Member recipients come first, then the
 * people written by name and email, so a 422 `recipients.<index>` points back to its row.
 */
export function requestOf(draft: LetterDraft): Record<string, unknown> {
  return {
    title: draft.title,
    body: draft.body,
    recipients: [
      ...draft.memberIds.map((userId) => ({ kind: 'member', user_id: userId })),
      ...draft.guests.map((guest) => ({
        kind: 'guest',
        last_name: guest.lastName,
        first_name: guest.firstName,
        email: guest.email.trim(),
      })),
    ],
    admin_user_ids: draft.adminIds,
    photo_names: draft.photos.map((photo) => photo.name),
    delivery: deliveryOf(draft),
  };
}

/** Two drafts that would send the same letter (a rule's field left behind does not count). */
export const sameLetter = (a: LetterDraft, b: LetterDraft) =>
  JSON.stringify(requestOf(a)) === JSON.stringify(requestOf(b));

/** Checks the draft with the server's own schema: the letter to send, or its problems. */
export function checkDraft(
  draft: LetterDraft,
): { ok: true; input: LetterInput } | { ok: false; problems: FieldProblem[] } {
  const parsed = letterInputSchema.safeParse(requestOf(draft));
  if (parsed.success) return { ok: true, input: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({
      field: issue.path.join('.'),
      code: issue.message,
    })),
  };
}

/** The first problem of a field or of anything inside it (`field` or `field.<…>`). */
export function problemOf(problems: FieldProblem[], field: string): FieldProblem | undefined {
  return problems.find(
    (problem) => problem.field === field || problem.field.startsWith(`${field}.`),
  );
}

/** The problem of one member recipient's place, or of the recipient list as a whole. */
export function memberRecipientsProblem(
  problems: FieldProblem[],
  memberCount: number,
): FieldProblem | undefined {
  return problems.find((problem) => {
    if (problem.field === 'recipients') return true;
    const index = /^recipients\.(\d+)/.exec(problem.field)?.[1];
    return index !== undefined && Number(index) < memberCount;
  });
}
