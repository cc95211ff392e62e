import type { SignInErrorCode } from '../../services/api/session';

/** The Fluent id of each sign-in failure code; anything else is the unexpected error. */
export const SIGN_IN_FAILURE_TEXT: Record<SignInErrorCode, string> = {
  invalid_credentials: 'login-error-invalid_credentials',
  too_many_attempts: 'login-error-too_many_attempts',
  account_locked: 'login-error-account_locked',
  account_memorialized: 'login-error-account_memorialized',
  unexpected: 'error-unexpected',
};

/** The protocol's errors of a social sign-in (OAuthSignin, OAuthCallback, …, Callback). */
const EXTERNAL_ERROR = /^(OAuth\w*|Callback)$/;

/**
 * The failure the session layer sent the user to /login with (`?error=…&code=…`): a
 * credentials failure by its code, a social sign-in failure as the external-provider text,
 * `SessionRequired` as none (the page only asks to sign in), anything else as unexpected.
 */
export function failureFromQuery(search: URLSearchParams): string | null {
  const error = search.get('error');
  if (!error || error === 'SessionRequired') return null;
  // A provider sign-in of a member whose death was released is worded as the password's.
  if (EXTERNAL_ERROR.test(error)) {
    return search.get('code') === 'account_memorialized'
      ? SIGN_IN_FAILURE_TEXT.account_memorialized
      : 'login-error-external';
  }
  if (error !== 'CredentialsSignin') return SIGN_IN_FAILURE_TEXT.unexpected;
  const code = search.get('code') as SignInErrorCode | null;
  return SIGN_IN_FAILURE_TEXT[code && code in SIGN_IN_FAILURE_TEXT ? code : 'unexpected'];
}
