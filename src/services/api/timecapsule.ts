import axios from 'axios';
import type {
  LetterEnvelope,
  LetterInput,
  LetterView,
  ReceivedLetter,
  UnsentLetter,
} from '../../contract/rules/timecapsule';
import { http } from '../http';

/** The time-capsule calls (docs/timecapsule.md, "API"). */

const BASE = '/v1/time_capsule_letter';
const letterPath = (letterId: string) => `${BASE}/${encodeURIComponent(letterId)}`;

export const timecapsuleKeys = {
  letter: (letterId: string) => ['timecapsule', 'letter', letterId] as const,
};

export async function fetchAdminLetters(): Promise<LetterEnvelope[]> {
  const { data } = await http.get<LetterEnvelope[]>(`${BASE}/get_admin_letters`);
  return data;
}

export async function fetchUnsentLetters(): Promise<UnsentLetter[]> {
  const { data } = await http.get<UnsentLetter[]>(`${BASE}/get_unsent_letters`);
  return data;
}

export async function fetchReceivedLetters(): Promise<ReceivedLetter[]> {
  const { data } = await http.get<ReceivedLetter[]>(`${BASE}/get_received_letters`);
  return data;
}

/** Reads a letter; a recipient's first read marks it opened. */
export async function fetchLetter(letterId: string): Promise<LetterView> {
  const { data } = await http.get<LetterView>(letterPath(letterId));
  return data;
}

export interface FieldProblem {
  field: string;
  code: string;
}

export type LetterSaveOutcome =
  | { kind: 'saved'; letterId: string }
  | { kind: 'invalid'; problems: FieldProblem[] }
  /** Delivered while it was being edited: a delivered letter never changes. */
  | { kind: 'delivered' };

function statusOf(error: unknown): number | undefined {
  return axios.isAxiosError(error) ? error.response?.status : undefined;
}

async function saveOutcome(
  save: () => Promise<{ data: { timeCapsuleLetterId: string } }>,
): Promise<LetterSaveOutcome> {
  try {
    const { data } = await save();
    return { kind: 'saved', letterId: data.timeCapsuleLetterId };
  } catch (error) {
    const status = statusOf(error);
    if (status === 409) return { kind: 'delivered' };
    if (status === 422 && axios.isAxiosError(error)) {
      const problems = (error.response?.data as { errors?: FieldProblem[] }).errors ?? [];
      return { kind: 'invalid', problems };
    }
    throw error;
  }
}

export function createLetter(input: LetterInput): Promise<LetterSaveOutcome> {
  return saveOutcome(() => http.post<{ timeCapsuleLetterId: string }>(BASE, input));
}

export function updateLetter(letterId: string, input: LetterInput): Promise<LetterSaveOutcome> {
  return saveOutcome(() => http.put<{ timeCapsuleLetterId: string }>(letterPath(letterId), input));
}

/** Deletes an unsent letter; answers false when it was delivered meanwhile (409). */
export async function deleteLetter(letterId: string): Promise<boolean> {
  try {
    await http.delete(letterPath(letterId));
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
    const { data } = await http.post<{ timeCapsuleLetterId: string }>(`${BASE}/claim`, { token });
    return data.timeCapsuleLetterId;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}
