import { useQuery } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { fromPromise } from 'xstate';
import { RouteLoading } from '../../components/shell/RouteLoading';
import { Button, ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { invitationMachine, type SharedLink } from '../../machines/invitation';
import { initialSlices } from '../../machines/clientState';
import {
  addPageAdmin,
  connectToInvitingUser,
  expireShareToken,
  memorialPageIdOfInvitation,
  validateShareToken,
} from '../../services/api/memorial';
import { useClientStateActor, useSlice } from '../../services/clientState/clientState';
import { usePetAdminSetting } from '../../services/clientState/usePetAdminSetting';
import { useSession } from '../../services/session/useSession';
import { Page, Panel } from '../../components/ui/pageLayout';
import { INVITATION_PATH } from './invitationLink';
import { memoryPath } from './memorialPageNames';
import { Actions } from './sectionLayout';
import { inspectOption } from '../../services/clientState/inspector';

const truthy = (value: string | null) => value === 'true';

/** The link in the address (a shared link), else the one kept through login or registration. */
function useInvitationLink(): SharedLink {
  const [search] = useSearchParams();
  const kept = useSlice('invitation');
  const shareToken = search.get('shareToken');
  const invitingUserId = search.get('invitingUserId');
  if (shareToken !== null || invitingUserId !== null) {
    return {
      shareToken,
      invitingUserId,
      setAdmin: truthy(search.get('setAdmin')),
      pet: truthy(search.get('pet')),
    };
  }
  return { ...kept, pet: false };
}

/**
 * The invitation chart with the real calls and the client state, the pages it leads to. The
 * chart keeps the implementations it was first given: the router's navigate and the pet-admin
 * setting's controls act on the same router and actor for the app's life.
 */
function useInvitationMachine(userId: string | null) {
  const clientState = useClientStateActor();
  const navigate = useNavigate();
  const petAdmin = usePetAdminSetting();
  const machine = invitationMachine.provide({
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
      keepLink: (_, value) => clientState.send({ type: 'UPDATE', slice: 'invitation', value }),
      clearInvitation: () =>
        clientState.send({
          type: 'UPDATE',
          slice: 'invitation',
          value: initialSlices.invitation,
        }),
      returnHereAfterLogin: () =>
        clientState.send({
          type: 'UPDATE',
          slice: 'nav',
          value: {
            ...clientState.getSnapshot().context.slices.nav,
            postLoginRedirectUrl: INVITATION_PATH,
          },
        }),
      openLogin: () => void navigate('/login'),
      openRegistration: (_, { pet }) =>
        void navigate(pet ? '/register-top?pet=true' : '/register-top'),
      setPetAdmin: (_, { targetMemorialPageEncodedId }) =>
        petAdmin.set(targetMemorialPageEncodedId),
    },
  });
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
  const { status, user } = useSession();
  const link = useInvitationLink();
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

  // The chart takes the link of each visit of the address (a link opened while here replaces
  // the one it holds) once the session is known; emptying the slice must not send it again.
  const { key: visit } = useLocation();
  const linkSentFor = useRef<string | null>(null);
  useEffect(() => {
    if (!sessionKnown || linkSentFor.current === visit) return;
    linkSentFor.current = visit;
    send({ type: 'LINK', ...link });
  }, [sessionKnown, visit, link, send]);

  const pageId = snapshot.context.memorialPageId ?? invitedPage.data ?? null;
  let body;
  if (snapshot.matches('invalid')) {
    body = <p role="alert">{t('memorial-error-invalid-invitation')}</p>;
  } else if (snapshot.matches('awaitingLogin')) {
    body = (
      <>
        <p>{t(taken.setAdmin ? 'invitation-lead-admin' : 'invitation-lead')}</p>
        <p>{t(taken.pet && taken.setAdmin ? 'invitation-sign-in-pet' : 'invitation-sign-in')}</p>
        <Actions>
          <Button type="button" onClick={() => send({ type: 'REGISTER' })}>
            {t('invitation-register')}
          </Button>
          <Button type="button" $variant="secondary" onClick={() => send({ type: 'SIGN_IN' })}>
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
