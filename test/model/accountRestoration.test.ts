import { expect } from 'vitest';
import {
  accountRestorationMachine,
  RESTORATION_REFUSALS,
} from '../../src/machines/accountRestoration';
import {
  accountRestorationEvents,
  ASSERTION,
  linkKind,
  PASSWORD,
  RESTORED,
  serializeRestoration,
  TOKEN,
} from './accountRestorationEvents';
import { describeModel, type StepInfo } from './modelTest';

const errorCode = (step: StepInfo) =>
  (step.event as { error?: { code?: string } | null } | undefined)?.error?.code;

/** Where the screen is told to take the assertion out of the address, each time. */
const dropped: { token: string }[] = [];

describeModel('accountRestoration', {
  machine: accountRestorationMachine.provide({
    actions: { dropAssertionFromAddress: (_, params) => void dropped.push(params) },
  }),
  events: accountRestorationEvents,
  serializeState: serializeRestoration as never,
  states: {
    opening: (snapshot) => {
      expect(snapshot.context.token).toBe('');
      expect(snapshot.children).toEqual({});
    },
    refused: (snapshot, step) => {
      expect(snapshot.status).toBe('done');
      expect(RESTORATION_REFUSALS).toContain(snapshot.context.failure);
      // An address without a token is no link; otherwise the server's refusal, as it came.
      if (step.event?.type === 'OPEN') {
        expect(step.event.token).toBe('');
        expect(snapshot.context.failure).toBe('restoration_link_invalid');
      } else expect(snapshot.context.failure).toBe(errorCode(step));
      expect(snapshot.context.restored).toBeNull();
    },
    proving: (snapshot, step) => {
      expect(Object.keys(snapshot.children)).toEqual(['proveLink']);
      // The assertion is spent on the proof and taken out of the address at once.
      expect(step.actions).toContain('dropAssertionFromAddress');
      expect(dropped.pop()).toEqual({ token: TOKEN });
      expect(step.invoked).toEqual([
        { src: 'proveLink', input: { token: TOKEN, assertion: ASSERTION } },
      ]);
    },
    checking: (snapshot, step) => {
      expect(Object.keys(snapshot.children)).toEqual(['readLink']);
      if (step.transitions > 0)
        expect(step.invoked).toEqual([{ src: 'readLink', input: { token: TOKEN } }]);
      expect(snapshot.context.assertion).toBeNull();
      expect(snapshot.context.failure).toBeNull();
      // Why the provider's proof did not hold stays said while the link is read.
      const event = step.event;
      if (event?.type === 'xstate.error.actor.proveLink')
        expect(snapshot.context.proofFailure).toBe(
          errorCode(step) === 'restoration_identity_mismatch'
            ? 'restoration_identity_mismatch'
            : 'proof_failed',
        );
      if (event?.type === 'OPEN')
        expect(snapshot.context.proofFailure).toBe(event.proofFailed ? 'proof_failed' : null);
    },
    unreachable: (snapshot) => {
      expect(snapshot.context.failure).toBe('failed');
      expect(snapshot.context.link).toBeNull();
      expect(snapshot.children).toEqual({});
    },
    ready: (snapshot, step) => {
      const { context } = snapshot;
      expect(context.link).not.toBeNull();
      const event = step.event;
      if (event?.type === 'xstate.done.actor.proveLink') {
        expect(linkKind(context)).toBe('proven');
        expect(context.proofFailure).toBeNull();
      }
      if (event?.type === 'PASSWORD') expect(context.password).toBe(event.value);
      if (event?.type === 'SUBMIT') {
        // Refused before sending: the password the link asks for is empty.
        expect(linkKind(context) === 'password' ? context.passwordError : null).toBe(
          linkKind(context) === 'password' && step.transitions > 0 ? 'required' : null,
        );
        if (linkKind(context) === 'provider') expect(step.transitions).toBe(0);
      }
      if (event?.type === 'xstate.error.actor.restore') {
        if (errorCode(step) === 'password_incorrect' && linkKind(context) === 'password') {
          expect(context.passwordError).toBe('password_incorrect');
          expect(context.failure).toBeNull();
        } else {
          expect(context.failure).toBe('failed');
          expect(context.passwordError).toBeNull();
        }
        // What was typed stays.
        expect(context.password).toBe(
          step.path.some((s) => s.event?.type === 'PASSWORD') ? PASSWORD : '',
        );
      }
      expect(snapshot.children).toEqual({});
    },
    restoring: (snapshot, step) => {
      expect(Object.keys(snapshot.children)).toEqual(['restore']);
      expect(snapshot.context).toMatchObject({ failure: null, passwordError: null });
      // The password goes only where the link asks for it; a proven link sends none.
      if (step.transitions > 0)
        expect(step.invoked).toEqual([
          {
            src: 'restore',
            input: {
              token: TOKEN,
              password: linkKind(snapshot.context) === 'password' ? PASSWORD : undefined,
            },
          },
        ]);
    },
    restored: (snapshot) => {
      expect(snapshot.status).toBe('done');
      expect(snapshot.context.restored).toEqual(RESTORED);
    },
  },
});
