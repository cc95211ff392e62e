/**
 * The events the session flows' paths are generated from (authSession, tokenRefresh,
 * deathDetection), shared by each model test (the bare machine) and its replays in the UI and
 * the browser, so that all three walk the same paths.
 */
import type { SnapshotFrom } from 'xstate';
import type { AuthSession } from '../../contract/sessionLayer';
import type { SuspectedUser } from '../../contract/deathDetection';
import type { authSessionMachine } from '../../src/machines/authSession';

/* ---------- authSession ---------- */

const user = { id: 'u-1', username: 'yamada', memorialPageId: 'm-1', iconUrl: null };
export const signedIn: AuthSession = {
  user,
  accessToken: 'access-1',
  expires: '2026-12-22T00:00:00.000Z',
};
export const renamed: AuthSession = { ...signedIn, user: { ...user, username: 'renamed' } };
export const rotated = { accessToken: 'access-2' };
export const sessionFailure = new Error('network down');

const outcome = (type: string, output?: unknown) => ({ type, output });

export const authSessionEvents = [
  outcome('xstate.done.actor.fetchSession', signedIn),
  outcome('xstate.done.actor.fetchSession', null),
  { type: 'xstate.error.actor.fetchSession', error: sessionFailure },
  outcome('xstate.done.actor.refetchSession', signedIn),
  outcome('xstate.done.actor.refetchSession', null),
  { type: 'xstate.error.actor.refetchSession', error: sessionFailure },
  outcome('xstate.done.actor.updateSession', renamed),
  { type: 'xstate.error.actor.updateSession', error: sessionFailure },
  outcome('xstate.done.actor.tokenRefresh', { outcome: 'refreshed', tokens: rotated }),
  outcome('xstate.done.actor.tokenRefresh', { outcome: 'loggedOut' }),
  outcome('xstate.done.actor.tokenRefresh', { outcome: 'failed', error: sessionFailure }),
  { type: 'xstate.error.actor.tokenRefresh', error: sessionFailure },
  { type: 'xstate.done.actor.signOut' },
  { type: 'xstate.error.actor.signOut', error: sessionFailure },
  { type: 'xstate.error.actor.watchTabs', error: sessionFailure },
  { type: 'REFETCH' },
  { type: 'SIGNED_IN' },
  { type: 'UPDATE', requestId: 7, data: { username: 'renamed' } },
  { type: 'REFRESH' },
  { type: 'SIGN_OUT' },
] as never;

/** Snapshots told apart by what the member could notice; two waiting updates show the order. */
export const authSessionSerialize = (snapshot: SnapshotFrom<typeof authSessionMachine>) =>
  JSON.stringify([
    snapshot.value,
    snapshot.context.session?.accessToken ?? null,
    snapshot.context.session?.user.username ?? null,
    Math.min(snapshot.context.pendingUpdates.length, 2),
    snapshot.context.refreshRequested,
  ]);

/* ---------- tokenRefresh ---------- */

export const tokenRefreshInput = { accessToken: 'access-1' };
export const storedElsewhere = { accessToken: 'access-other-tab' };
export const refreshedTokens = { accessToken: 'access-2' };
export const httpError = (status: number) =>
  Object.assign(new Error(`HTTP ${status}`), { response: { status } });
/** The session layer's own failures carry the status on the error itself. */
export const sessionError = (status: number) =>
  Object.assign(new Error(`session ${status}`), { status });

export const tokenRefreshEvents = [
  { type: 'xstate.done.actor.readStoredTokens', output: { accessToken: 'access-1' } },
  { type: 'xstate.done.actor.readStoredTokens', output: storedElsewhere },
  { type: 'xstate.error.actor.readStoredTokens', error: httpError(500) },
  { type: 'xstate.done.actor.requestTokens', output: refreshedTokens },
  { type: 'xstate.error.actor.requestTokens', error: sessionError(401) },
  { type: 'xstate.error.actor.requestTokens', error: httpError(403) },
  { type: 'xstate.error.actor.requestTokens', error: httpError(503) },
] as never;

/* ---------- deathDetection ---------- */

export const ME = 'user-me';
export const TODAY = '2026-11-22';
export const YESTERDAY = '2026-11-21';
export const mother: SuspectedUser = {
  userId: 'user-mother',
  memorialPageId: 'page-mother',
  lastName: '山田',
  firstName: '花子',
  state: 'suspected',
};
/** Mother's case once every confirmation is in: the grace period asks nobody. */
export const motherInGrace: SuspectedUser = { ...mother, state: 'grace' };
export const myself: SuspectedUser = { ...mother, userId: ME };
export const myselfInGrace: SuspectedUser = { ...myself, state: 'grace' };

export const loaded = (inApp: boolean, lastShownDate: string | null) =>
  ({ type: 'LOADED', currentUserId: ME, inApp, today: TODAY, lastShownDate }) as const;

/** Every identity status the server answers, with why a REVOKED one is revoked. */
export const IDENTITY_STATUSES = [
  { authStatus: 'ACTIVE', revokedReason: null },
  { authStatus: 'INITIAL', revokedReason: null },
  { authStatus: 'PROGRESS', revokedReason: null },
  { authStatus: 'REVOKED', revokedReason: 'expired' },
  { authStatus: 'REVOKED', revokedReason: 'revoked' },
] as const;

/**
 * Each state is offered the events that can happen in it: the shell loads once, and the
 * modals' buttons exist only while their modal is shown.
 */
export const deathDetectionEvents = ((snapshot: { matches: (state: string) => boolean }) => {
  if (snapshot.matches('waitingForLoad'))
    return [loaded(true, null), loaded(false, YESTERDAY), loaded(true, TODAY)];
  if (snapshot.matches('deathModal')) return [{ type: 'START_CONFIRMATION' }, { type: 'CLOSE' }];
  if (
    ['unverifiedModal', 'progressModal', 'expiredModal', 'revokedModal'].some((state) =>
      snapshot.matches(state),
    )
  )
    return [{ type: 'REVERIFY' }, { type: 'LATER' }];
  return [
    { type: 'xstate.done.actor.findSuspectedUser', output: null },
    { type: 'xstate.done.actor.findSuspectedUser', output: myself },
    { type: 'xstate.done.actor.findSuspectedUser', output: mother },
    { type: 'xstate.done.actor.findSuspectedUser', output: motherInGrace },
    { type: 'xstate.done.actor.findSuspectedUser', output: myselfInGrace },
    { type: 'xstate.error.actor.findSuspectedUser', error: new Error('offline') },
    { type: 'xstate.done.actor.cancelSuspicion', output: undefined },
    { type: 'xstate.error.actor.cancelSuspicion', error: new Error('offline') },
    ...IDENTITY_STATUSES.map((output) => ({
      type: 'xstate.done.actor.readIdentityStatus',
      output,
    })),
    { type: 'xstate.error.actor.readIdentityStatus', error: new Error('offline') },
  ];
}) as never;
