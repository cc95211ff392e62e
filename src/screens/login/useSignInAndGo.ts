import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useClientStateSend, useSlice } from '../../services/clientState/clientState';
import { takeLetterClaim } from '../../services/persistence/pendingLetterClaim';
import type { SignInCredentials } from '../../services/api/session';
import { useSession } from '../../services/session/useSession';
import { afterLoginTarget } from './redirect';
import { SIGN_IN_FAILURE_TEXT } from './signInFailure';

/**
 * Signs in and, on success, goes to the page first asked for (the postLoginRedirectUrl is
 * used up on the way), else to a letter whose link was opened before registering
 * (src/services/persistence/pendingLetterClaim.ts). Answers the protocol's sign-in result.
 */
export function useSignInAndGo() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const nav = useSlice('nav');
  const send = useClientStateSend();
  const goOn = useCallback(() => {
    const target = afterLoginTarget(
      nav.postLoginRedirectUrl ?? takeLetterClaim(),
      search.get('callbackUrl'),
    );
    if (nav.postLoginRedirectUrl !== null) {
      send({ type: 'UPDATE', slice: 'nav', value: { ...nav, postLoginRedirectUrl: null } });
    }
    void navigate(target, { replace: true });
  }, [nav, navigate, search, send]);
  const signInAndGo = useCallback(
    async (credentials: SignInCredentials) => {
      const result = await signIn(credentials);
      if (result.ok) goOn();
      return result;
    },
    [goOn, signIn],
  );
  return { signInAndGo, goOn };
}

/**
 * A password sign-in form (login, activation): both fields required, then the sign-in, its
 * failure as a Fluent id. On success the screen is left; `submitting` stays set so that it
 * is not left twice.
 */
export function useSignInForm(
  initialFailure: string | null = null,
  initialMemorializedSince: string | null = null,
) {
  const { signInAndGo, goOn } = useSignInAndGo();
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(initialFailure);
  // When the death of the member signing in was confirmed: the screen says it, with the way back.
  const [memorializedSince, setMemorializedSince] = useState(initialMemorializedSince);
  const submit = async (credentials: SignInCredentials) => {
    if (credentials.username === '' || credentials.password === '') {
      setFailure('login-required');
      return;
    }
    setSubmitting(true);
    setFailure(null);
    try {
      const result = await signInAndGo(credentials);
      if (result.ok) return;
      setFailure(SIGN_IN_FAILURE_TEXT[result.error ?? 'unexpected']);
      setMemorializedSince(result.memorializedSince);
    } catch {
      setFailure('error-unexpected');
    }
    setSubmitting(false);
  };
  return { submit, submitting, failure, memorializedSince, goOn };
}
