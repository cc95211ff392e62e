import { useQuery } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { fromPromise } from 'xstate';
import { RouteLoading } from '../../components/shell/RouteLoading';
import { Button, ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { invitationMachine, type InvitationLink } from '../../machines/invitation';
import { initialSlices } from '../../machines/clientState';
import {
  addPageAdmin,
  connectToInvitingUser,
  expireShareToken,
  memorialPageIdOfInvitation,
  validateShareToken,
} from '../../services/api/memorial';
import { useClientStateSend, useSlice } from '../../services/clientState/clientState';
import { usePetAdminSetting } from '../../services/clientState/usePetAdminSetting';
import { useSession } from '../../services/session/useSession';
import { Page, Panel } from '../../components/ui/pageLayout';
import { INVITATION_PATH } from './invitationLink';
import { memoryPath } from './memorialPageNames';
import { Actions } from './sectionLayout';
import { inspectOption } from '../../services/clientState/inspector';

const truthy = (value: string | null) => value === 'true';

/** The link in the address (a shared link), else the one kept through login or registration. */
function useInvitationLink(): { link: InvitationLink; isPet: boolean } {
  const [search] = useSearchParams();
  const kept = useSlice('invitation');
  const shareToken = search.get('shareToken');
  const invitingUserId = search.get('invitingUserId');
  if (shareToken !== null || invitingUserId !== null) {
    return {
      link: { shareToken, invitingUserId, setAdmin: truthy(search.get('setAdmin')) },
      isPet: truthy(search.get('pet')),
    };
  }
  return { link: kept, isPet: false };
}

/** The invitation chart with the real calls; the slice is emptied once the link is used up. */
function useInvitationMachine(userId: string | null) {
  const sendClientState = useClientStateSend();
  const latest = useRef({ sendClientState });
  useEffect(() => {
    latest.current = { sendClientState };
  });
  // eslint-disable-next-line react-hooks/refs -- read when an event runs an effect, not during render
  const [machine] = useState(() =>
    invitationMachine.provide({
      actors: {
        validateShareToken: fromPromise(async ({ input }) => ({
          isValid: await validateShareToken(input),
        })),
        connectToInvitingUser: fromPromise(({ input }) => connectToInvitingUser(input)),
        resolveMemorialPage: fromPromise(({ input }) => memorialPageIdOfInvitation(input)),
        addMemorialPageAdmin: fromPromise(({ input }) =>
          addPageAdmin(input.memorialPageId, input.adminUserId),
        ),
        expireShareToken: fromPromise(({ input }) => expireShareToken(input)),
      },
      actions: {
        clearInvitation: () =>
          latest.current.sendClientState({
            type: 'UPDATE',
            slice: 'invitation',
            value: initialSlices.invitation,
          }),
      },
    }),
  );
  return useMachine(machine, { ...inspectOption(), input: { userId } });
}

/**
 * /memory/invitation?shareToken=…&invitingUserId=…&setAdmin=…(&pet=true): a shared
 * invitation link. It is validated; a signed-out visitor keeps it (invitation slice) through
 * login or registration and comes back here; then the invitee is connected to the inviting
 * member, made an admin when the link says so, and the link is used up. A pet page's admin
 * link registers in pet mode instead: the new account becomes the pet page's admin when it
 * is activated.
 */
export function Component() {
  const t = useT();
  const navigate = useNavigate();
  const { status, user } = useSession();
  const { link, isPet } = useInvitationLink();
  const nav = useSlice('nav');
  const sendClientState = useClientStateSend();
  const petAdmin = usePetAdminSetting();
  const [snapshot, send] = useInvitationMachine(user?.id ?? null);
  const sessionKnown = status !== 'loading';
  // The link the chart took: the slice is emptied once it is used up, the chart keeps it.
  const taken = snapshot.context;
  const credential = { token: taken.shareToken ?? '', invitingUserId: taken.invitingUserId ?? '' };

  // The page the link is for, read while the token still holds (it is spent at the end).
  const invitedPage = useQuery({
    queryKey: ['invitation', 'page', credential.token, credential.invitingUserId],
    queryFn: () => memorialPageIdOfInvitation(credential),
    enabled: Boolean(taken.shareToken && taken.invitingUserId),
    staleTime: Infinity,
    retry: false,
  });

  useEffect(() => {
    if (user) send({ type: 'LOGGED_IN', userId: user.id });
  }, [user, send]);

  const { shareToken, invitingUserId, setAdmin } = link;
  const complete = Boolean(shareToken && invitingUserId);
  // The chart takes the link once; emptying the slice at the end must not start it again.
  const linkSent = useRef(false);
  useEffect(() => {
    if (!sessionKnown || !complete || linkSent.current) return;
    linkSent.current = true;
    sendClientState({
      type: 'UPDATE',
      slice: 'invitation',
      value: { shareToken, invitingUserId, setAdmin },
    });
    send({ type: 'LINK', shareToken, invitingUserId, setAdmin });
  }, [sessionKnown, complete, shareToken, invitingUserId, setAdmin, send, sendClientState]);

  /** Back here after signing in: the slice keeps the link meanwhile. */
  const comeBackAfterLogin = () =>
    sendClientState({
      type: 'UPDATE',
      slice: 'nav',
      value: { ...nav, postLoginRedirectUrl: INVITATION_PATH },
    });

  const signIn = () => {
    comeBackAfterLogin();
    void navigate('/login');
  };
  const register = () => {
    if (isPet && setAdmin && shareToken) {
      petAdmin.set(shareToken);
      sendClientState({ type: 'UPDATE', slice: 'invitation', value: initialSlices.invitation });
      void navigate('/register-top?pet=true');
      return;
    }
    comeBackAfterLogin();
    void navigate('/register-top');
  };

  const pageId = snapshot.context.memorialPageId ?? invitedPage.data ?? null;
  let body;
  if (snapshot.matches('invalid') || (snapshot.matches('absent') && !complete)) {
    body = <p role="alert">{t('memorial-error-invalid-invitation')}</p>;
  } else if (snapshot.matches('awaitingLogin')) {
    body = (
      <>
        <p>{t(setAdmin ? 'invitation-lead-admin' : 'invitation-lead')}</p>
        <p>{t(isPet && setAdmin ? 'invitation-sign-in-pet' : 'invitation-sign-in')}</p>
        <Actions>
          <Button type="button" onClick={register}>
            {t('invitation-register')}
          </Button>
          <Button type="button" $variant="secondary" onClick={signIn}>
            {t('invitation-login')}
          </Button>
        </Actions>
      </>
    );
  } else if (snapshot.matches('accepted')) {
    body = (
      <>
        <p role="status">
          {t(taken.setAdmin ? 'invitation-accepted-admin' : 'invitation-accepted')}
        </p>
        {pageId ? (
          <ButtonLink to={memoryPath(pageId)}>{t('invitation-open-page')}</ButtonLink>
        ) : (
          <Link to="/connection">{t('invitation-open-connections')}</Link>
        )}
      </>
    );
  } else {
    return <RouteLoading />;
  }
  return (
    <Page>
      <h1>{t('invitation-title')}</h1>
      <Panel>{body}</Panel>
    </Page>
  );
}
