import { assign, setup } from 'xstate';
import { notProvided } from './notProvided';

/**
 * Accepting an invitation link (spec §3 invitation state, §4): the invitation exists only
 * when both shareToken and invitingUserId are set. It is validated first; a signed-out
 * visitor keeps it through login or registration; then the invitee is connected to the
 * inviting member, made an admin of the inviter's memorial page when setAdmin is true, and
 * the token is expired. Any failing step ends in `invalid` (the invalid-invitation error).
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

export interface InvitationInput {
  /** The signed-in member, or null while signed out. */
  userId: string | null;
}

export interface InvitationContext extends InvitationLink, InvitationInput {
  memorialPageId: string | null;
  error: 'invalid-invitation' | null;
}

const noLink: InvitationLink = { shareToken: null, invitingUserId: null, setAdmin: false };

/** What every invitation call sends: the pair from the shared link. */
export interface InvitationCredential {
  token: string;
  invitingUserId: string;
}

export type InvitationEvent =
  /** The invitation slice as the shared link set it (query shareToken, invitingUserId, setAdmin). */
  ({ type: 'LINK' } & InvitationLink) | { type: 'LOGGED_IN'; userId: string };

const credentialOf = (context: InvitationContext): InvitationCredential => ({
  token: context.shareToken ?? '',
  invitingUserId: context.invitingUserId ?? '',
});

/** A new link replaces whatever the machine held; an incomplete one is no invitation. */
const receiveLink = [
  { guard: 'linkIsComplete', target: 'validating', actions: 'rememberLink' },
  { target: 'absent', actions: 'forgetLink' },
] as const;

export const invitationMachine = setup({
  types: {
    context: {} as InvitationContext,
    input: {} as InvitationInput,
    events: {} as InvitationEvent,
  },
  actors: {
    validateShareToken: notProvided<{ isValid: boolean }, InvitationCredential>(
      'invitation',
      'validateShareToken',
    ),
    connectToInvitingUser: notProvided<void, InvitationCredential>(
      'invitation',
      'connectToInvitingUser',
    ),
    resolveMemorialPage: notProvided<string, InvitationCredential>(
      'invitation',
      'resolveMemorialPage',
    ),
    addMemorialPageAdmin: notProvided<void, { memorialPageId: string; adminUserId: string }>(
      'invitation',
      'addMemorialPageAdmin',
    ),
    expireShareToken: notProvided<void, InvitationCredential>('invitation', 'expireShareToken'),
  },
  actions: {
    /** Empties the invitation slice of the client state: the link has been used up. */
    clearInvitation: () => undefined,
    markInvalid: assign({ error: 'invalid-invitation' as const }),
    rememberLink: assign(({ event }) =>
      event.type === 'LINK'
        ? {
            shareToken: event.shareToken,
            invitingUserId: event.invitingUserId,
            setAdmin: event.setAdmin,
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
      on: { LOGGED_IN: { target: 'connecting', actions: 'rememberUser' } },
    },
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
