import { expect } from 'vitest';
import { tokenRefreshMachine } from '../../src/machines/tokenRefresh';
import { describeModel } from './modelTest';

const elsewhere = { accessToken: 'access-other-tab', refreshToken: 'refresh-other-tab' };
const rotated = { accessToken: 'access-2', refreshToken: 'refresh-2' };
const httpError = (status: number) =>
  Object.assign(new Error(`HTTP ${status}`), { response: { status } });

const storeFailures: unknown[] = [];

describeModel('tokenRefresh', {
  machine: tokenRefreshMachine.provide({
    actions: { reportStoreFailure: (_, { error }) => void storeFailures.push(error) },
  }),
  input: { refreshToken: 'refresh-1' },
  events: [
    {
      type: 'xstate.done.actor.readStoredTokens',
      output: { accessToken: 'access-1', refreshToken: 'refresh-1' },
    },
    { type: 'xstate.done.actor.readStoredTokens', output: elsewhere },
    { type: 'xstate.error.actor.readStoredTokens', error: httpError(500) },
    { type: 'xstate.done.actor.requestTokens', output: rotated },
    { type: 'xstate.error.actor.requestTokens', error: httpError(401) },
    { type: 'xstate.error.actor.requestTokens', error: httpError(403) },
    { type: 'xstate.error.actor.requestTokens', error: httpError(503) },
    { type: 'xstate.done.actor.storeTokens' },
    { type: 'xstate.error.actor.storeTokens', error: httpError(500) },
  ] as never,
  states: {
    checkingStored: (snapshot) => {
      expect(snapshot.children.readStoredTokens).toBeDefined();
    },
    requesting: (snapshot, step) => {
      // The token spent is the one the refresh was started with.
      expect(step.invoked).toEqual([
        { src: 'requestTokens', input: { refreshToken: 'refresh-1' } },
      ]);
      expect(snapshot.context.refreshToken).toBe('refresh-1');
      expect(snapshot.children.requestTokens).toBeDefined();
    },
    storing: (snapshot, step) => {
      expect(step.invoked).toEqual([{ src: 'storeTokens', input: rotated }]);
      expect(snapshot.context.result).toEqual({ outcome: 'refreshed', tokens: rotated });
      expect(snapshot.children.storeTokens).toBeDefined();
    },
    refreshed: (snapshot, step) => {
      if (step.event?.type === 'xstate.done.actor.readStoredTokens') {
        expect(snapshot.output).toEqual({ outcome: 'refreshed', tokens: elsewhere });
        return;
      }
      expect(snapshot.output).toEqual({ outcome: 'refreshed', tokens: rotated });
      if (step.event?.type === 'xstate.error.actor.storeTokens') {
        expect(step.actions).toContain('reportStoreFailure');
        expect((storeFailures.at(-1) as Error).message).toBe('HTTP 500');
      }
    },
    loggedOut: (snapshot, step) => {
      expect(snapshot.output).toEqual({ outcome: 'loggedOut' });
      expect([401, 403]).toContain(
        (step.event as unknown as { error: { response: { status: number } } }).error.response
          .status,
      );
    },
    failed: (snapshot) => {
      expect(snapshot.output).toMatchObject({ outcome: 'failed' });
      expect((snapshot.output as { error: Error }).error.message).toBe('HTTP 503');
    },
  },
});
