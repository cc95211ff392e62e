import type { SignInErrorCode } from '../../services/api/session';

/** The Fluent id of each sign-in failure (spec §8); anything else is the unexpected error. */
export const SIGN_IN_FAILURE_TEXT: Record<SignInErrorCode, string> = {
  invalid_credentials: 'login-error-invalid_credentials',
  too_many_attempts: 'login-error-too_many_attempts',
  account_locked: 'login-error-account_locked',
  unexpected: 'error-unexpected',
};

/**
 * The failure the session layer sent the user to /login with (`?error=…&code=…`): a
 * credentials failure by its code, any other error (a social sign-in) as the
 * external-provider failure.
 */
export function failureFromQuery(search: URLSearchParams): string | null {
  const error = search.get('error');
  if (!error) return null;
  if (error !== 'CredentialsSignin') return 'login-error-external';
  const code = search.get('code') as SignInErrorCode | null;
  return SIGN_IN_FAILURE_TEXT[code && code in SIGN_IN_FAILURE_TEXT ? code : 'unexpected'];
}
