/**
 * The identity verification's model: the events each state is offered, shared by the model
 * test and the UI replay.
 */
import {
  AppAbsentError,
  type AuthStatus,
  type LoadedStatus,
} from '../../src/machines/identityVerification';

export const loaded = (authStatus: AuthStatus, appPresent: boolean): LoadedStatus => ({
  authStatus,
  notAfter: authStatus === 'ACTIVE' ? '2027-11-22T00:00:00.000Z' : null,
  revokedReason: authStatus === 'REVOKED' ? 'expired' : null,
  appPresent,
});

/** START is a button of the four status screens, RETRY one of the failure screen. */
export const identityVerificationEvents = ((snapshot: { value: unknown }) => {
  if (['INITIAL', 'PROGRESS', 'REVOKED', 'ACTIVE'].includes(snapshot.value as string))
    return [{ type: 'START' }];
  if (snapshot.value === 'failed') return [{ type: 'RETRY' }];
  return [
    { type: 'xstate.done.actor.loadStatus', output: loaded('INITIAL', true) },
    { type: 'xstate.done.actor.loadStatus', output: loaded('PROGRESS', true) },
    { type: 'xstate.done.actor.loadStatus', output: loaded('ACTIVE', false) },
    { type: 'xstate.done.actor.loadStatus', output: loaded('ACTIVE', true) },
    { type: 'xstate.done.actor.loadStatus', output: loaded('REVOKED', true) },
    { type: 'xstate.done.actor.loadStatus', output: loaded('REVOKED', false) },
    { type: 'xstate.error.actor.loadStatus', error: new Error('offline') },
    { type: 'xstate.done.actor.registerCertificate', output: undefined },
    { type: 'xstate.error.actor.registerCertificate', error: new AppAbsentError() },
    {
      type: 'xstate.error.actor.registerCertificate',
      error: new Error('certificate_not_trusted'),
    },
  ];
}) as never;
