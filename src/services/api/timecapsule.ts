import type { CamelKeys, ErrorBody } from '../../../contract/endpoint';
import type { LetterInput } from '../../../contract/rules/timecapsule';
import {
  timecapsuleEndpoints as letters,
  type LetterEnvelope,
  type LetterView,
  type ReceivedLetter,
  type UnsentLetter,
} from '../../../contract/timecapsule';
import { callEndpoint } from '../http/callEndpoint';
import { toCamelCase } from '../http/casing';
import { isHttpError } from '../http/lazy';
import { pageQueryOf, type ListPage } from './listPages';

/** The time-capsule calls (docs/timecapsule.md, "API"); the wire's shapes are the contract's. */

export const timecapsuleKeys = {
  /** The three lists of the time capsule's screen, read again after a letter changes. */
  lists: ['timecapsule', 'list'] as const,
  letter: (letterId: string) => ['timecapsule', 'letter', letterId] as const,
};

/** One page of each list (`cursor` null for the first). */
export function fetchAdminLettersPage(cursor: string | null): Promise<ListPage<LetterEnvelope>> {
  return callEndpoint(letters.listAdminLettersPaged, { query: pageQueryOf(cursor) });
}

export function fetchUnsentLettersPage(cursor: string | null): Promise<ListPage<UnsentLetter>> {
  return callEndpoint(letters.listUnsentLettersPaged, { query: pageQueryOf(cursor) });
}

export function fetchReceivedLettersPage(cursor: string | null): Promise<ListPage<ReceivedLetter>> {
  return callEndpoint(letters.listReceivedLettersPaged, { query: pageQueryOf(cursor) });
}

/** Reads a letter; a recipient's first read marks it opened. */
export function fetchLetter(letterId: string): Promise<LetterView> {
  return callEndpoint(letters.readLetter, { params: { letterId } });
}

export type FieldProblem = NonNullable<ErrorBody['errors']>[number];

export type LetterSaveOutcome =
  | { kind: 'saved'; letterId: string }
  | { kind: 'invalid'; problems: FieldProblem[] }
  /** Delivered while it was being edited: a delivered letter never changes. */
  | { kind: 'delivered' };

function statusOf(error: unknown): number | undefined {
  return isHttpError(error) ? error.response?.status : undefined;
}

async function saveOutcome(
  save: () => Promise<{ timeCapsuleLetterId: string }>,
): Promise<LetterSaveOutcome> {
  try {
    const data = await save();
    return { kind: 'saved', letterId: data.timeCapsuleLetterId };
  } catch (error) {
    const status = statusOf(error);
    if (status === 409) return { kind: 'delivered' };
    if (status === 422 && isHttpError(error)) {
      const problems = (error.response?.data as { errors?: FieldProblem[] }).errors ?? [];
      return { kind: 'invalid', problems };
    }
    throw error;
  }
}

/**
 * The compose form checks its input with the contract's own schema, so it holds the wire's
 * snake_case keys; the client writes camelCase and turns it back into snake_case.
 */
const bodyOf = (input: LetterInput) => toCamelCase(input) as CamelKeys<LetterInput>;

export function createLetter(input: LetterInput): Promise<LetterSaveOutcome> {
  return saveOutcome(() => callEndpoint(letters.createLetter, { body: bodyOf(input) }));
}

export function updateLetter(letterId: string, input: LetterInput): Promise<LetterSaveOutcome> {
  return saveOutcome(() =>
    callEndpoint(letters.updateLetter, { params: { letterId }, body: bodyOf(input) }),
  );
}

/** Deletes an unsent letter; answers false when it was delivered meanwhile (409). */
export async function deleteLetter(letterId: string): Promise<boolean> {
  try {
    await callEndpoint(letters.deleteLetter, { params: { letterId } });
    return true;
  } catch (error) {
    if (statusOf(error) === 409) return false;
    throw error;
  }
}

/**
 * Claims a letter mailed to a non-member by its link's token, for the signed-in member whose
 * address it was sent to. Answers the letter id, or null when the link is not theirs (404).
 */
export async function claimLetter(token: string): Promise<string | null> {
  try {
    const data = await callEndpoint(letters.claimLetter, { body: { token } });
    return data.timeCapsuleLetterId;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}
