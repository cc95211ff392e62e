import { afterEach, describe, expect, it } from 'vitest';
import { jsonForScript } from '../../server/routes/memberPage';
import { formatCount } from '../../src/i18n/formatCount';
import { takeFirstNoteReads } from '../../src/services/api/endingnote';
import { PAGE_ANSWERS_ID, resetPageAnswers, takePageAnswer } from '../../src/services/pageAnswers';

const OWNER = '0b6f0a52-8f0e-4a43-9d7c-1f3c3f1f9a01';
const FRIEND = '3c1e2a77-4d2b-4b8e-8f6a-2b7d9c0e5a02';

/** The note as GET /v1/endingnote/{userId} answers it (server/domain/endingnote/sections.ts). */
const noteAnswer = {
  userId: OWNER,
  owner: { userId: OWNER, lastName: '山田', firstName: '太郎' },
  viewer: 'owner',
  sections: [
    {
      section: 'self',
      visibility: 'private',
      version: 2,
      updatedAt: '2026-11-22T01:02:03.000Z',
      values: { full_name: '</script><script>alert(1)</script>', birthdate: '', family: '' },
      completion: { filled: 1, total: 6 },
    },
  ],
  members: [],
};

/** Writes the element as the server does (server/routes/memberPage.ts). */
function pageCarries(answers: Record<string, unknown>) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = PAGE_ANSWERS_ID;
  element.textContent = jsonForScript({ userId: OWNER, answers });
  document.head.append(element);
}

afterEach(() => {
  document.getElementById(PAGE_ANSWERS_ID)?.remove();
  resetPageAnswers();
});

describe("the route's first answers in the page", () => {
  it('are taken once each, and the element leaves the page at the first look', () => {
    pageCarries({ '/v1/a': { items: [] }, '/v1/b': 1 });
    expect(takePageAnswer('/v1/a')).toEqual({ items: [] });
    expect(document.getElementById(PAGE_ANSWERS_ID)).toBeNull();
    expect(takePageAnswer('/v1/a')).toBeUndefined();
    expect(takePageAnswer('/v1/b')).toBe(1);
    expect(takePageAnswer('/v1/c')).toBeUndefined();
  });

  it('are none when the page has none, or an element that does not parse', () => {
    expect(takePageAnswer('/v1/a')).toBeUndefined();
    resetPageAnswers();
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = PAGE_ANSWERS_ID;
    element.textContent = '{"userId":';
    document.head.append(element);
    expect(takePageAnswer('/v1/a')).toBeUndefined();
  });

  it("give the note's first reads as its calls give them", () => {
    pageCarries({
      [`/v1/endingnote/${OWNER}`]: noteAnswer,
      [`/v1/endingnote/${OWNER}/readers`]: {
        readers: [{ user_id: FRIEND, last_name: '佐藤', first_name: '花子', connected: true }],
      },
      '/v1/connection/connections': {
        items: [
          {
            user_id: FRIEND,
            last_name: '佐藤',
            first_name: '花子',
            icon_url: null,
            certificated: false,
          },
        ],
      },
    });
    const reads = takeFirstNoteReads(OWNER);
    expect(reads?.note.sections[0]!.values).toEqual(noteAnswer.sections[0]!.values);
    expect(reads?.note).toMatchObject({ userId: OWNER, viewer: 'owner', owner: noteAnswer.owner });
    expect(reads?.readers).toEqual([
      { userId: FRIEND, lastName: '佐藤', firstName: '花子', connected: true },
    ]);
    expect(reads?.connectionChoices).toEqual([
      { userId: FRIEND, lastName: '佐藤', firstName: '花子' },
    ]);
    // Taken: the next visit of the screen reads through the API.
    expect(takeFirstNoteReads(OWNER)).toBeUndefined();
  });

  it("give a reader's note alone, and nothing for another note", () => {
    pageCarries({ [`/v1/endingnote/${OWNER}`]: { ...noteAnswer, viewer: 'reader' } });
    expect(takeFirstNoteReads(FRIEND)).toBeUndefined();
    resetPageAnswers();
    pageCarries({ [`/v1/endingnote/${OWNER}`]: { ...noteAnswer, viewer: 'reader' } });
    const reads = takeFirstNoteReads(OWNER);
    expect(reads?.note.viewer).toBe('reader');
    expect(reads).not.toHaveProperty('readers');
    expect(reads).not.toHaveProperty('connectionChoices');
  });
});

describe('counts as message arguments', () => {
  it('are written as Intl.NumberFormat writes whole numbers in Japanese', () => {
    for (const count of [0, 7, 99, 100, 999, 1000, 12345, 1234567, -4321]) {
      expect(formatCount(count)).toBe(new Intl.NumberFormat('ja').format(count));
    }
  });
});
