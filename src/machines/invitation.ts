import { assign, fromPromise, setup } from 'xstate';

/**
 * Accepting an invitation link: the invitation exists only
 * when both shareToken and invitingUserId are set. It is validated first; a signed-out
 * visitor keeps it through login or registration; then the invitee is connected to the
 * inviting member, made an admin of the inviter's memorial page when setAdmin is true, and
 * the token is expired. Any failing step ends in `invalid` (the invalid-invitation error).
 *
 * A signed-out visitor chooses: signing in or registering brings them back here (the link is
 * kept in the invitation slice meanwhile), except with a pet page's admin link: registering
 * then hands the link to the pet-admin setting and registers in pet mode, and the new account
 * becomes the pet page's admin when it is activated.
 *
 * Calls (server/routes/memorial/invitations.ts): validate_share_token,
 * create_connection_to_inviting_user, get_memorial_page_id_from_inviting_user_id,
 * add_memorial_page_admin, expire_share_token — given with `.provide()`.
 */
export interface InvitationLink {
  shareToken: string | null;
  invitingUserId: string | null;
  setAdmin: boolean;
}

/** The link as the address gives it: a pet page's link says so (`pet=true`). */
export interface SharedLink extends InvitationLink {
  pet: boolean;
}

export interface InvitationInput {
  /** The signed-in member, or null while signed out. */
  userId: string | null;
}

export interface InvitationContext extends SharedLink, InvitationInput {
  memorialPageId: string | null;
  error: 'invalid-invitation' | null;
}

const noLink: SharedLink = { shareToken: null, invitingUserId: null, setAdmin: false, pet: false };

/** What every invitation call sends: the pair from the shared link. */
export interface InvitationCredential {
  token: string;
  invitingUserId: string;
}

export type InvitationEvent =
  /** The shared link (query shareToken, invitingUserId, setAdmin, pet), else the kept one. */
  | ({ type: 'LINK' } & SharedLink)
  | { type: 'LOGGED_IN'; userId: string }
  /** The signed-out visitor chooses to register, or to sign in. */
  | { type: 'REGISTER' }
  | { type: 'SIGN_IN' };

const credentialOf = (context: InvitationContext): InvitationCredential => ({
  token: context.shareToken ?? '',
  invitingUserId: context.invitingUserId ?? '',
});

/** A new link replaces whatever the machine held and is kept; an incomplete one is invalid. */
const receiveLink = [
  {
    guard: 'linkIsComplete',
    target: 'validating',
    actions: [
      'rememberLink',
      {
        type: 'keepLink',
        params: ({ context }: { context: InvitationContext }) => ({
          shareToken: context.shareToken,
          invitingUserId: context.invitingUserId,
          setAdmin: context.setAdmin,
        }),
      },
    ],
  },
  { target: 'invalid', reenter: true, actions: 'forgetLink' },
] as const;

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "invitation" was not provided`);
  });

export const invitationMachine = setup({
  types: {
    context: {} as InvitationContext,
    input: {} as InvitationInput,
    events: {} as InvitationEvent,
  },
  actors: {
    validateShareToken: notProvided<{ isValid: boolean }, InvitationCredential>(
      'validateShareToken',
    ),
    connectToInvitingUser: notProvided<void, InvitationCredential>('connectToInvitingUser'),
    resolveMemorialPage: notProvided<string, InvitationCredential>('resolveMemorialPage'),
    addMemorialPageAdmin: notProvided<void, { memorialPageId: string; adminUserId: string }>(
      'addMemorialPageAdmin',
    ),
    expireShareToken: notProvided<void, InvitationCredential>('expireShareToken'),
  },
  actions: {
    /** Keeps the link in the invitation slice, through login or registration. */
    keepLink: (_, _params: InvitationLink) => undefined,
    /** Empties the invitation slice of the client state: the link has been used up. */
    clearInvitation: () => undefined,
    /** After signing in or registering, the member comes back to the invitation. */
    returnHereAfterLogin: () => undefined,
    openLogin: () => undefined,
    openRegistration: (_, _params: { pet: boolean }) => undefined,
    /** Starts the 24-hour pet-admin setting for the page of the pet page's admin link. */
    setPetAdmin: (_, _params: { targetMemorialPageEncodedId: string }) => undefined,
    markInvalid: assign({ error: 'invalid-invitation' as const }),
    rememberLink: assign(({ event }) =>
      event.type === 'LINK'
        ? {
            shareToken: event.shareToken,
            invitingUserId: event.invitingUserId,
            setAdmin: event.setAdmin,
            pet: event.pet,
            error: null,
          }
        : {},
    ),
    forgetLink: assign({ ...noLink, memorialPageId: null, error: null }),
    rememberUser: assign({
      userId: ({ context, event }) => (event.type === 'LOGGED_IN' ? event.userId : context.userId),
    }),
  },
  guards: {
    /** Present only when both the token and the inviting member are known. */
    linkIsComplete: ({ event }) =>
      event.type === 'LINK' && Boolean(event.shareToken && event.invitingUserId),
    signedIn: ({ context }) => context.userId !== null,
    isValid: (_, params: { isValid: boolean }) => params.isValid,
    setAdmin: ({ context }) => context.setAdmin,
    /** A pet page's admin link: registering takes it in pet mode. */
    petAdminLink: ({ context }) => context.pet && context.setAdmin,
  },
}).createMachine({
  id: 'invitation',
  context: ({ input }) => ({ ...noLink, ...input, memorialPageId: null, error: null }),
  initial: 'absent',
  on: {
    LOGGED_IN: { actions: 'rememberUser' },
  },
  states: {
    absent: { on: { LINK: receiveLink } },
    validating: {
      invoke: {
        id: 'validateShareToken',
        src: 'validateShareToken',
        input: ({ context }) => credentialOf(context),
        onDone: [
          {
            guard: { type: 'isValid', params: ({ event }) => event.output },
            target: 'awaitingLogin',
          },
          { target: 'invalid' },
        ],
        onError: 'invalid',
      },
    },
    awaitingLogin: {
      always: { guard: 'signedIn', target: 'connecting' },
      on: {
        LOGGED_IN: { target: 'connecting', actions: 'rememberUser' },
        SIGN_IN: { actions: ['returnHereAfterLogin', 'openLogin'] },
        REGISTER: [
          {
            guard: 'petAdminLink',
            target: 'handedToPetAdmin',
            actions: [
              {
                type: 'setPetAdmin',
                params: ({ context }) => ({
                  targetMemorialPageEncodedId: context.shareToken ?? '',
                }),
              },
              'clearInvitation',
              { type: 'openRegistration', params: { pet: true } },
            ],
          },
          {
            actions: ['returnHereAfterLogin', { type: 'openRegistration', params: { pet: false } }],
          },
        ],
      },
    },
    /** The pet page's admin link went to the pet-admin setting and a pet-mode registration. */
    handedToPetAdmin: { on: { LINK: receiveLink } },
    connecting: {
      invoke: {
        id: 'connectToInvitingUser',
        src: 'connectToInvitingUser',
        input: ({ context }) => credentialOf(context),
        onDone: [{ guard: 'setAdmin', target: 'resolvingPage' }, { target: 'expiring' }],
        onError: 'invalid',
      },
    },
    resolvingPage: {
      invoke: {
        id: 'resolveMemorialPage',
        src: 'resolveMemorialPage',
        input: ({ context }) => credentialOf(context),
        onDone: {
          target: 'addingAdmin',
          actions: assign({ memorialPageId: ({ event }) => event.output }),
        },
        onError: 'invalid',
      },
    },
    addingAdmin: {
      invoke: {
        id: 'addMemorialPageAdmin',
        src: 'addMemorialPageAdmin',
        input: ({ context }) => ({
          memorialPageId: context.memorialPageId ?? '',
          adminUserId: context.userId ?? '',
        }),
        onDone: 'expiring',
        onError: 'invalid',
      },
    },
    expiring: {
      invoke: {
        id: 'expireShareToken',
        src: 'expireShareToken',
        input: ({ context }) => credentialOf(context),
        onDone: { target: 'accepted', actions: 'clearInvitation' },
        onError: 'invalid',
      },
    },
    accepted: { on: { LINK: receiveLink } },
    invalid: {
      // The screen shows the message of this state in its own alert: one announcement, not two.
      entry: ['markInvalid', 'clearInvitation'],
      on: { LINK: receiveLink },
    },
  },
});
