import { isHttpError } from '../../services/http/lazy';

/**
 * A failed call as a coded error for the machines and screens: the first field code of a 422,
 * else the answer's `code`; `offline` when no answer came.
 */
export class CodedFailure extends Error {
  constructor(
    readonly code: string,
    readonly field: string | null = null,
  ) {
    super(code);
    this.name = 'CodedFailure';
  }
}

export function codedFailureOf(error: unknown): unknown {
  if (!isHttpError(error)) return error;
  const data = error.response?.data as
    { code?: string; errors?: { field: string; code: string }[] } | undefined;
  if (!error.response) return new CodedFailure('offline');
  const first = data?.errors?.[0];
  if (first) return new CodedFailure(first.code, first.field);
  return new CodedFailure(data?.code ?? 'unexpected');
}

/** Runs a call and rethrows its failure coded. */
export async function coded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw codedFailureOf(error);
  }
}
