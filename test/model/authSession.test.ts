import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { authSessionMachine } from '../../src/machines/authSession';
import { describeModel } from './modelTest';
import {
  authSessionEvents,
  authSessionSerialize,
  rotated,
  sessionFailure as failure,
} from './sessionFlowEvents';

/** The outcomes that (re-)enter authenticated.idle, whose entry syncs the user slice. */
const ENTERS_IDLE = [
  'xstate.done.actor.fetchSession',
  'xstate.done.actor.refetchSession',
  'xstate.error.actor.refetchSession',
  'xstate.done.actor.updateSession',
  'xstate.error.actor.updateSession',
  'xstate.done.actor.tokenRefresh',
  'xstate.error.actor.tokenRefresh',
];

type Snapshot = SnapshotFrom<typeof authSessionMachine>;

const reported: { code: string; error: unknown }[] = [];

describeModel('authSession', {
  machine: authSessionMachine.provide({
    actions: { reportError: (_, params) => void reported.push(params) },
  }),
  serializeState: authSessionSerialize,
  events: authSessionEvents,
  pathRule: (path, last) => {
    // A broken tab watcher is reported, whatever the session is doing.
    if (path.at(-1)?.event?.type === 'xstate.error.actor.watchTabs')
      expect(reported.at(-1)).toEqual({ code: 'CLIENT_SESSION_ERROR', error: failure });
    // One refresh at a time however many callers ask for one, and one update at a time.
    for (const src of ['tokenRefresh', 'updateSession']) {
      let running = 0;
      for (const step of path) {
        const type = step.event?.type ?? '';
        if (
          type.startsWith(`xstate.done.actor.${src}`) ||
          type.startsWith(`xstate.error.actor.${src}`)
        )
          running = 0;
        if (type === 'SIGN_OUT') running = 0;
        running += step.invoked.filter((actor) => actor.src === src).length;
        expect(running, `${src} running at once`).toBeLessThanOrEqual(1);
      }
    }
    // Every REFRESH the session took is answered (refreshed / refreshFailed), or its refresh is
    // still out: the HTTP client holds every call until it hears.
    let asked = false;
    for (const step of path) {
      if (step.emitted.some((event) => /^refresh(ed|Failed)$/.test(event.type))) asked = false;
      else if (step.event?.type === 'REFRESH' && step.transitions > 0) asked = true;
    }
    if (asked)
      expect(
        last.matches({ authenticated: 'refreshing' }) || last.context.refreshRequested,
        'a refresh asked for and never answered',
      ).toBe(true);
    // Every UPDATE settles: it has been answered, or it waits behind a call still running.
    const sent = path.filter((step) => step.event?.type === 'UPDATE').length;
    const settled = path.flatMap((step) =>
      step.emitted.filter((event) => event.type === 'updated' || event.type === 'updateFailed'),
    ).length;
    const waiting = last.context.pendingUpdates.length;
    expect(settled + waiting, 'updates answered or waiting').toBe(sent);
    if (waiting > 0)
      expect(Object.keys(last.children).filter((id) => id !== 'watchTabs')).not.toEqual([]);
  },
  states: {
    loading: (snapshot: Snapshot, step) => {
      if (step.event === undefined)
        expect(step.invoked).toContainEqual({ src: 'fetchSession', input: undefined });
      expect(snapshot.context.session).toBeNull();
      expect(snapshot.children.fetchSession).toBeDefined();
    },
    'authenticated.idle': (snapshot, step) => {
      const { session } = snapshot.context;
      expect(session).not.toBeNull();
      if (step.event && ENTERS_IDLE.some((type) => step.event!.type.startsWith(type))) {
        expect(step.actions).toContain('syncUser');
      }
      switch (step.event?.type) {
        case 'xstate.done.actor.updateSession':
          expect(session!.user.username).toBe('renamed');
          expect(step.actions).toContain('announceChange');
          expect(step.emitted).toEqual([{ type: 'updated', requestId: 7 }]);
          break;
        case 'xstate.error.actor.updateSession':
          expect(step.emitted).toEqual([{ type: 'updateFailed', requestId: 7, error: failure }]);
          break;
        case 'xstate.done.actor.tokenRefresh': {
          const output = (step.event as unknown as { output: { outcome: string } }).output;
          if (output.outcome === 'refreshed') {
            expect(session).toMatchObject(rotated);
            expect(step.actions).toContain('announceChange');
            expect(step.emitted).toEqual([{ type: 'refreshed', accessToken: 'access-2' }]);
          } else {
            expect(step.emitted).toEqual([
              { type: 'refreshFailed', loggedOut: false, error: failure },
            ]);
          }
          break;
        }
        case 'xstate.error.actor.tokenRefresh':
          expect(step.emitted).toEqual([
            { type: 'refreshFailed', loggedOut: false, error: failure },
          ]);
          break;
        case 'xstate.error.actor.refetchSession':
          expect(step.actions).toContain('reportError');
          expect(reported.at(-1)).toEqual({ code: 'CLIENT_FETCH_ERROR', error: failure });
          break;
      }
    },
    'authenticated.refetching': (snapshot) => {
      expect(snapshot.children.refetchSession).toBeDefined();
      expect(snapshot.context.session).not.toBeNull();
    },
    'authenticated.updating': (snapshot, step) => {
      expect(snapshot.children.updateSession).toBeDefined();
      // What the member asked to change is what is posted.
      for (const started of step.invoked)
        expect(started).toEqual({ src: 'updateSession', input: { username: 'renamed' } });
      // The update in flight is never cancelled by a refresh.
      if (step.event?.type === 'REFRESH') expect(step.invoked).toEqual([]);
    },
    'authenticated.refreshing': (snapshot, step) => {
      // Any session refreshes: the refresh token is the cookie's, the server decides.
      expect(snapshot.context.session).not.toBeNull();
      expect(snapshot.children.tokenRefresh).toBeDefined();
      expect(step.emitted.filter((event) => event.type.startsWith('refresh'))).toEqual([]);
      // The refresh is told which access token failed, so another tab's rotation is noticed.
      for (const started of step.invoked.filter((actor) => actor.src === 'tokenRefresh'))
        expect(started.input).toEqual({ accessToken: snapshot.context.session!.accessToken });
    },
    'unauthenticated.idle': (snapshot, step) => {
      expect(snapshot.context.session).toBeNull();
      if (step.event?.type === 'REFRESH') {
        expect(step.emitted).toEqual([{ type: 'refreshFailed', loggedOut: true }]);
      }
      if (step.event?.type === 'xstate.error.actor.fetchSession') {
        expect(step.actions).toContain('reportError');
        expect(reported.at(-1)).toEqual({ code: 'CLIENT_FETCH_ERROR', error: failure });
      }
      if (step.event?.type === 'xstate.error.actor.signOut')
        expect(reported.at(-1)).toEqual({ code: 'SIGNOUT_ERROR', error: failure });
      if (step.event?.type.startsWith('xstate.done.actor.signOut')) {
        expect(step.actions).toContain('announceChange');
      }
    },
    'unauthenticated.refetching': (snapshot, step) => {
      expect(snapshot.children.refetchSession).toBeDefined();
      if (step.event?.type === 'SIGNED_IN' && step.actions.length > 0) {
        expect(step.actions).toContain('announceChange');
      }
    },
    signingOut: (snapshot, step) => {
      expect(snapshot.context.session).toBeNull();
      expect(snapshot.children.signOut).toBeDefined();
      if (step.event?.type === 'REFRESH' || step.event?.type === 'xstate.done.actor.tokenRefresh') {
        expect(step.emitted).toEqual([{ type: 'refreshFailed', loggedOut: true }]);
      }
      if (step.event?.type === 'SIGN_OUT' && step.actions.length > 0) {
        expect(step.actions).toContain('syncUser');
      }
    },
  },
});
