import { expect } from 'vitest';
import { tokenRefreshMachine } from '../../src/machines/tokenRefresh';
import { describeModel } from './modelTest';

const elsewhere = { accessToken: 'access-other-tab' };
const rotated = { accessToken: 'access-2' };
const httpError = (status: number) =>
  Object.assign(new Error(`HTTP ${status}`), { response: { status } });
/** The session layer's own failures carry the status on the error itself. */
const sessionError = (status: number) => Object.assign(new Error(`session ${status}`), { status });

describeModel('tokenRefresh', {
  machine: tokenRefreshMachine,
  input: { accessToken: 'access-1' },
  events: [
    { type: 'xstate.done.actor.readStoredTokens', output: { accessToken: 'access-1' } },
    { type: 'xstate.done.actor.readStoredTokens', output: elsewhere },
    { type: 'xstate.error.actor.readStoredTokens', error: httpError(500) },
    { type: 'xstate.done.actor.requestTokens', output: rotated },
    { type: 'xstate.error.actor.requestTokens', error: sessionError(401) },
    { type: 'xstate.error.actor.requestTokens', error: httpError(403) },
    { type: 'xstate.error.actor.requestTokens', error: httpError(503) },
  ] as never,
  states: {
    checkingStored: (snapshot) => {
      expect(snapshot.children.readStoredTokens).toBeDefined();
    },
    requesting: (snapshot) => {
      expect(snapshot.context.accessToken).toBe('access-1');
      expect(snapshot.children.requestTokens).toBeDefined();
    },
    refreshed: (snapshot, step) => {
      if (step.event?.type === 'xstate.done.actor.readStoredTokens') {
        expect(snapshot.output).toEqual({ outcome: 'refreshed', tokens: elsewhere });
        return;
      }
      expect(snapshot.output).toEqual({ outcome: 'refreshed', tokens: rotated });
    },
    loggedOut: (snapshot, step) => {
      expect(snapshot.output).toEqual({ outcome: 'loggedOut' });
      const error = (
        step.event as unknown as { error: { status?: number; response?: { status: number } } }
      ).error;
      expect([401, 403]).toContain(error.status ?? error.response?.status);
    },
    failed: (snapshot) => {
      expect(snapshot.output).toMatchObject({ outcome: 'failed' });
      expect((snapshot.output as { error: Error }).error.message).toBe('HTTP 503');
    },
  },
});
