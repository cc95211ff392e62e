import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useClientStateSend, useSlice } from '../../services/clientState';
import { takeLetterClaim } from '../../services/pendingLetterClaim';
import { useSession } from '../../services/session/useSession';
import { afterLoginTarget } from './redirect';

/**
 * Signs in and, on success, goes to the page first asked for (the postLoginRedirectUrl is
 * used up on the way), else to a letter whose link was opened before registering
 * (src/services/pendingLetterClaim.ts). Answers the protocol's sign-in result.
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
    async (credentials: { username: string; password: string }) => {
      const result = await signIn(credentials);
      if (result.ok) goOn();
      return result;
    },
    [goOn, signIn],
  );
  return { signInAndGo, goOn };
}
