import { expect } from 'vitest';
import { tokenRefreshMachine } from '../../src/machines/tokenRefresh';
import { describeModel } from './modelTest';
import {
  refreshedTokens as rotated,
  storedElsewhere as elsewhere,
  tokenRefreshEvents,
  tokenRefreshInput,
} from './sessionFlowEvents';

describeModel('tokenRefresh', {
  machine: tokenRefreshMachine,
  input: tokenRefreshInput,
  events: tokenRefreshEvents,
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
