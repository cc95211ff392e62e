import axios from 'axios';
import type { z } from 'zod';

/** Validation codes by snake_case field, from a zod result or a 422 answer. */
export type FieldCodes = Record<string, string>;

export function codesOfIssues(issues: z.core.$ZodIssue[]): FieldCodes {
  const codes: FieldCodes = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    codes[field] ??= issue.message;
  }
  return codes;
}

/** The per-field codes of a 422 answer, or null for any other failure. */
export function codesOfAnswer(error: unknown): FieldCodes | null {
  if (!axios.isAxiosError(error) || error.response?.status !== 422) return null;
  const errors = (error.response.data as { errors?: { field: string; code: string }[] }).errors;
  if (!errors?.length) return null;
  return Object.fromEntries(errors.map(({ field, code }) => [field, code]));
}

/** Over a throttle limit or locked after repeated wrong passwords (the sign-in throttle). */
export function isThrottled(error: unknown): boolean {
  const status = axios.isAxiosError(error) ? error.response?.status : undefined;
  return status === 423 || status === 429;
}
