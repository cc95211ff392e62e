import { expect } from 'vitest';
import {
  SPARSE_PAGE_TOP,
  memoryNavigationMachine,
  type MemorialPageContents,
} from '../../src/machines/memoryNavigation';
import { describeModel } from './modelTest';
import { ownActions } from './navigationSupport';

const PAGE = 'page-1';
const sparse: MemorialPageContents = { album: [], histories: [{}], admins: [{}] };
const rich: MemorialPageContents = { album: [], histories: [{}, {}], admins: [{}] };

const navigations: string[] = [];
const machine = memoryNavigationMachine.provide({
  actions: { navigate: (_, { to }) => void navigations.push(to) },
});

const open = (loggedIn: boolean, hasToken: boolean, memorialPageId: string | null) =>
  ({ type: 'OPEN', loggedIn, hasToken, memorialPageId }) as const;

describeModel('memoryNavigation', {
  machine,
  events: [
    open(false, false, null),
    open(true, false, PAGE),
    open(true, true, null),
    open(true, true, PAGE),
    { type: 'xstate.done.actor.loadMemorialPageContents', output: sparse },
    { type: 'xstate.done.actor.loadMemorialPageContents', output: rich },
    { type: 'xstate.error.actor.loadMemorialPageContents', error: new Error('offline') },
  ] as never,
  states: {
    idle: (_snapshot, { event, actions }) => {
      const sent = event as
        { type: string; loggedIn?: boolean; hasToken?: boolean; output?: unknown } | undefined;
      if (sent?.type === 'OPEN' && !sent.loggedIn) {
        expect(ownActions(actions)).toEqual(['goToLogin']);
      } else if (sent?.type === 'OPEN') {
        // Logged in without a token or without an own page: nothing happens.
        expect(ownActions(actions)).toEqual([]);
      } else if (sent?.type === 'xstate.done.actor.loadMemorialPageContents') {
        expect(ownActions(actions)).toEqual(['navigate']);
        expect(navigations.at(-1)).toBe(
          sent.output === sparse ? SPARSE_PAGE_TOP : `/memory/${PAGE}`,
        );
      } else if (sent?.type === 'xstate.error.actor.loadMemorialPageContents') {
        expect(ownActions(actions)).toEqual(['reportLoadFailure']);
      } else {
        expect(sent).toBeUndefined();
      }
    },
    loading: (snapshot) => {
      expect(snapshot.context.memorialPageId).toBe(PAGE);
      expect(Object.keys(snapshot.children)).toEqual(['loadMemorialPageContents']);
    },
  },
});
