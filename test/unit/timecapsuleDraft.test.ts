import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WriterView } from '../../contract/timecapsule';
import type { Timestamp } from '../../contract/common';
import {
  letterClaimPath,
  rememberLetterClaim,
  takeLetterClaim,
} from '../../src/services/persistence/pendingLetterClaim';
import {
  checkDraft,
  DELIVERY_RULES,
  draftOf,
  emptyDraft,
  memberRecipientsProblem,
  requestOf,
  sameLetter,
} from '../../src/screens/timecapsule/letterDraft';
import { parseJapanDateTime } from '../../contract/rules/timecapsule';

const messageIds = new Set(
  [
    ...readFileSync(path.join(__dirname, '../../src/i18n/ja/translation.ftl'), 'utf8').matchAll(
      /^([a-z][\w-]*) =/gm,
    ),
  ].map((match) => match[1]),
);

const FRIEND = '0b7d2c1e-4a5f-4c3b-9d8e-1f2a3b4c5d6e';
const OTHER = '7c6b5a49-3827-4165-8f9e-0d1c2b3a4f5e';

const writerView = (changes: Partial<WriterView>): WriterView => ({
  role: 'writer',
  timeCapsuleLetterId: 'c0ffee00-0000-4000-8000-000000000001',
  receiverFirstName: '受子',
  receiverLastName: '手紙',
  receivers: [],
  title: '春の手紙',
  body: '桜のころに。',
  sendDate: '2027-03-31T15:30:00.000Z' as Timestamp,
  event: null,
  createdAt: '2026-11-22T03:00:00.000Z' as Timestamp,
  adminFirstNames: [],
  adminLastNames: [],
  photos: [{ name: 'uploads/abc.png', url: '/files/uploads/abc.png?sig=1' }],
  rule: 'date',
  delayDays: null,
  anniversaryYears: null,
  afterDeathDate: null,
  adminUserIds: [OTHER],
  recipients: [
    {
      kind: 'member',
      userId: FRIEND,
      email: null,
      firstName: '受子',
      lastName: '手紙',
      deliveredAt: null,
      openedAt: null,
      late: null,
    },
    {
      kind: 'guest',
      userId: null,
      email: 'mirai@example.jp',
      firstName: '花',
      lastName: '未来',
      deliveredAt: null,
      openedAt: null,
      late: null,
    },
  ],
  deliveredAt: null,
  updatedAt: '2026-11-22T05:05:00.000Z' as Timestamp,
  ...changes,
});

describe('the compose form draft', () => {
  it('says every problem of an empty letter by its request field, with the shared codes', () => {
    const checked = checkDraft(emptyDraft());
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems).toEqual(
      expect.arrayContaining([
        { field: 'title', code: 'required' },
        { field: 'body', code: 'required' },
        { field: 'recipients', code: 'required' },
        { field: 'delivery.send_at', code: 'required' },
      ]),
    );
  });

  it('sends members first, then guests, so a 422 index points back to its row', () => {
    const draft = {
      ...emptyDraft(),
      title: '手紙',
      body: '本文',
      memberIds: [FRIEND],
      guests: [{ key: 0, lastName: '未来', firstName: '花', email: ' mirai@example.jp ' }],
      rule: 'death' as const,
      delayDays: '7',
    };
    const checked = checkDraft(draft);
    expect(checked).toEqual({
      ok: true,
      input: {
        title: '手紙',
        body: '本文',
        recipients: [
          { kind: 'member', user_id: FRIEND },
          { kind: 'guest', last_name: '未来', first_name: '花', email: 'mirai@example.jp' },
        ],
        admin_user_ids: [],
        photo_names: [],
        delivery: { rule: 'death', delay_days: 7 },
      },
    });
    const problems = [
      { field: 'recipients.0.user_id', code: 'not_connected' },
      { field: 'recipients.1.email', code: 'email_invalid' },
    ];
    expect(memberRecipientsProblem(problems, 1)).toEqual(problems[0]);
    expect(memberRecipientsProblem(problems.slice(1), 1)).toBeUndefined();
  });

  it('refuses numbers that are not whole or out of range, as the server does', () => {
    const base = { ...emptyDraft(), title: 't', body: 'b', memberIds: [FRIEND] };
    const problemsOf = (changes: object) => {
      const checked = checkDraft({ ...base, ...changes });
      return checked.ok ? [] : checked.problems;
    };
    expect(problemsOf({ rule: 'death', delayDays: '1.5' })).toEqual([
      { field: 'delivery.delay_days', code: 'number_invalid' },
    ]);
    expect(problemsOf({ rule: 'death_anniversary', anniversaryYears: '0' })).toEqual([
      { field: 'delivery.anniversary_years', code: 'number_out_of_range' },
    ]);
    expect(problemsOf({ rule: 'date_after_death', afterDeathDate: '2040-02-30' })).toEqual([
      { field: 'delivery.after_death_date', code: 'date_invalid' },
    ]);
  });

  it('opens an unsent letter as it was written, its time in Japan time', () => {
    const draft = draftOf(writerView({}));
    expect(draft.sendAt).toBe('2027-04-01T00:30');
    expect(parseJapanDateTime(draft.sendAt)?.toISOString()).toBe('2027-03-31T15:30:00.000Z');
    expect(draft.memberIds).toEqual([FRIEND]);
    expect(draft.guests).toEqual([
      { key: 0, lastName: '未来', firstName: '花', email: 'mirai@example.jp' },
    ]);
    expect(draft.adminIds).toEqual([OTHER]);
    expect(requestOf(draft).photo_names).toEqual(['uploads/abc.png']);
  });

  it('counts only what would change the letter as unsaved', () => {
    const draft = draftOf(writerView({}));
    // A number typed under another rule, which was then left, changes nothing.
    expect(sameLetter(draft, { ...draft, delayDays: '3' })).toBe(true);
    expect(sameLetter(draft, { ...draft, title: '夏の手紙' })).toBe(false);
    expect(sameLetter(draft, { ...draft, rule: 'death' })).toBe(false);
  });

  it('has Japanese words for every rule, event and validation code of a letter', () => {
    const ids = [
      ...DELIVERY_RULES.map((rule) => `timecapsule-rule-${rule}`),
      ...DELIVERY_RULES.filter((rule) => rule !== 'date').map(
        (rule) => `timecapsule-event-${rule}`,
      ),
      ...['admin', 'unsent', 'received'].flatMap((list) => [
        `timecapsule-list-${list}`,
        `timecapsule-list-${list}-failed`,
        `timecapsule-list-${list}-empty`,
      ]),
      ...[
        'required',
        'too_long',
        'too_many',
        'email_invalid',
        'datetime_invalid',
        'date_invalid',
        'number_invalid',
        'number_out_of_range',
        'must_be_future',
        'not_connected',
        'duplicate',
        'photo_invalid',
      ].map((code) => `validation-${code}`),
    ];
    expect(ids.filter((id) => !messageIds.has(id))).toEqual([]);
  });
});

describe('a letter link opened before registering', () => {
  afterEach(() => {
    vi.useRealTimers();
    localStorage.clear();
  });

  it('is taken once by the first sign-in', () => {
    rememberLetterClaim('tok/en+1');
    expect(takeLetterClaim()).toBe(letterClaimPath('tok/en+1'));
    expect(letterClaimPath('tok/en+1')).toBe('/timecapsule/claim?token=tok%2Fen%2B1');
    expect(takeLetterClaim()).toBeNull();
  });

  it('is forgotten after a day, as the activation link expires', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-22T00:00:00Z') });
    rememberLetterClaim('token');
    vi.setSystemTime(Date.parse('2026-11-23T00:00:01Z'));
    expect(takeLetterClaim()).toBeNull();
    expect(localStorage.length).toBe(0);
  });
});
