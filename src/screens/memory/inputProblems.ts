import type { z } from 'zod';
import { useT } from '../../i18n/useT';
import { fieldErrorsOf } from '../../machines/memoryCreation';
import { UploadRefused } from '../../services/api/uploads';

/*
 * What the memorial forms say about refused input: checked before sending, or refused by the
 * server.
 */

/** Validation codes by snake_case field, or `form` for a failure that names no field. */
export type Problems = Record<string, string>;

/** Input refused before anything was sent (the shared wire schema said no). */
export class InvalidInput extends Error {
  constructor(readonly problems: Problems) {
    super('invalid input');
  }
}

/**
 * The memorial wire schemas, loaded when a form is first checked: they bring zod, which a
 * visitor who only reads the page never needs.
 */
export const memorialSchemas = () => import('../../../contract/rules/memorial');

/** Checks a request with its shared wire schema; throws InvalidInput with the field codes. */
export function checkRequest(schema: z.ZodType, request: unknown): void {
  const result = schema.safeParse(request);
  if (!result.success) {
    throw new InvalidInput(
      Object.fromEntries(
        result.error.issues.map((issue) => [String(issue.path[0] ?? 'form'), issue.message]),
      ),
    );
  }
}

/** What a failed save says: the 422 field codes, the store's refusal, or a general failure. */
export function problemsOf(error: unknown): Problems {
  if (error instanceof InvalidInput) return error.problems;
  if (error instanceof UploadRefused) return { image_name: error.code };
  const fields = fieldErrorsOf(error);
  if (fields.length === 0) return { form: 'save_failed' };
  return Object.fromEntries(fields.map(({ field, code }) => [field, code]));
}

/** The Japanese text of a field's problem, if it has one. */
export function useProblemText(problems: Problems): (field: string) => string | undefined {
  const t = useT();
  return (field) => {
    const code = problems[field];
    if (!code) return undefined;
    return code === 'save_failed' ? t('memory-save-failed') : t(`validation-${code}`);
  };
}
