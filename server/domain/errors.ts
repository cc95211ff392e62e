/** One field's problem: the request field (snake_case, dotted for nesting) and a stable code. */
export interface FieldError {
  field: string;
  code: string;
}

/**
 * What kind of refusal a rule makes, in the domain's words. The one error handler
 * (`server/http/errors.ts`) gives each kind its HTTP status.
 */
export type DomainErrorKind =
  /** A field breaks a rule (with `errors`). */
  | 'invalid'
  /** A mailed link or token is used, expired or unknown. */
  | 'link_invalid'
  /** The caller could not be identified. */
  | 'unauthenticated'
  /** The caller is known but may not do this. */
  | 'forbidden'
  /** The thing does not exist, or the caller may not know it exists. */
  | 'not_found'
  /** The thing's current state does not allow this. */
  | 'conflict'
  /** Content over its size limit. */
  | 'too_large'
  /** Content of a type the rule does not accept. */
  | 'unsupported_type'
  /** The account is locked for a while. */
  | 'locked'
  /** Too many attempts for a while. */
  | 'too_many_attempts'
  /** The feature is not configured on this server. */
  | 'unavailable';

/**
 * The one error type domain code throws. `code` is stable and machine-readable (the client
 * maps it to its Japanese text); `detail` is for people reading logs and docs.
 */
export class DomainError extends Error {
  readonly errors?: FieldError[];
  /** For `locked` and `too_many_attempts`: when the caller may try again. */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    readonly detail: string,
    more: { errors?: FieldError[]; retryAfterSeconds?: number } = {},
  ) {
    super(detail);
    this.name = 'DomainError';
    if (more.errors) this.errors = more.errors;
    if (more.retryAfterSeconds !== undefined) this.retryAfterSeconds = more.retryAfterSeconds;
  }
}

export const notFound = (what = 'resource') =>
  new DomainError('not_found', 'not_found', `${what} not found`);
export const forbidden = (detail = 'not allowed') =>
  new DomainError('forbidden', 'forbidden', detail);
export const unauthenticated = (detail = 'authentication required') =>
  new DomainError('unauthenticated', 'unauthorized', detail);
export const conflict = (code: string, detail: string) => new DomainError('conflict', code, detail);
export const invalid = (errors: FieldError[], detail = 'invalid input') =>
  new DomainError('invalid', 'validation_failed', detail, { errors });
