import { createActor, SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  emptyPetAdminSetting,
  petAdminMachine,
  type PetAdminSetting,
} from '../../src/machines/petAdmin';
import { describeModel } from './modelTest';
import { ownActions } from './navigationSupport';

const T0 = Date.parse('2026-11-22T00:00:00Z');
const HOUR = 60 * 60 * 1000;
/** The spec's lifetime of a pet-admin link, written here rather than taken from the code. */
const TWENTY_FOUR_HOURS = 24 * HOUR;
const stored = (fields: Partial<PetAdminSetting>): PetAdminSetting => ({
  targetMemorialPageEncodedId: 'pet-link',
  expiresAt: T0 + 2 * HOUR,
  completed: false,
  ...fields,
});

const persisted: PetAdminSetting[] = [];
const machine = petAdminMachine.provide({
  actions: { persistSetting: (_, setting) => void persisted.push(setting) },
});

describeModel('petAdmin', {
  machine,
  events: (snapshot) =>
    [
      ...(snapshot.matches('active') ? [{ type: 'xstate.after.untilExpiry.petAdmin.active' }] : []),
      { type: 'RESTORED', setting: stored({}), at: T0 },
      { type: 'RESTORED', setting: stored({ expiresAt: T0 - 1 }), at: T0 },
      { type: 'RESTORED', setting: stored({ completed: true }), at: T0 },
      // A setting that lost its page or its expiry is dropped, however recent.
      { type: 'RESTORED', setting: stored({ targetMemorialPageEncodedId: null }), at: T0 },
      { type: 'RESTORED', setting: stored({ expiresAt: null }), at: T0 },
      { type: 'RESTORED', setting: emptyPetAdminSetting, at: T0 },
      { type: 'SET', targetMemorialPageEncodedId: 'pet-link', at: T0 },
      { type: 'COMPLETE' },
    ] as never,
  states: {
    inactive: ({ context }, { event, actions }) => {
      expect(context).toMatchObject(emptyPetAdminSetting);
      if (event?.type.startsWith('xstate.after')) {
        expect(ownActions(actions)).toEqual(['persistSetting']);
        expect(persisted.at(-1)).toEqual(emptyPetAdminSetting);
      }
    },
    active: ({ context }, { event, actions }) => {
      expect(context.targetMemorialPageEncodedId).toBe('pet-link');
      expect(context.completed).toBe(false);
      // Active only before it expires, and never longer than 24 hours from now.
      expect(context.expiresAt).toBeGreaterThan(context.now);
      expect(context.expiresAt! - context.now).toBeLessThanOrEqual(TWENTY_FOUR_HOURS);
      if (event?.type === 'SET') {
        expect(context.expiresAt).toBe(T0 + TWENTY_FOUR_HOURS);
        expect(ownActions(actions)).toEqual(['persistSetting']);
        expect(persisted.at(-1)).toMatchObject({ expiresAt: T0 + TWENTY_FOUR_HOURS });
      }
    },
    completed: ({ context }, { event, actions }) => {
      expect(context.completed).toBe(true);
      expect(context.targetMemorialPageEncodedId).toBe('pet-link');
      if (event?.type === 'COMPLETE' && ownActions(actions).length > 0) {
        expect(ownActions(actions)).toEqual(['persistSetting']);
        expect(persisted.at(-1)?.completed).toBe(true);
      }
    },
  },
});

describe('petAdmin expiry', () => {
  const run = () => {
    const clock = new SimulatedClock();
    const actor = createActor(petAdminMachine, { clock }).start();
    return { clock, actor };
  };

  it('ends exactly 24 hours after it was set', () => {
    const { clock, actor } = run();
    actor.send({ type: 'SET', targetMemorialPageEncodedId: 'pet-link', at: T0 });
    clock.increment(TWENTY_FOUR_HOURS - 1);
    expect(actor.getSnapshot().value).toBe('active');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('inactive');
  });

  it('drops a restored setting at the very moment it expires', () => {
    const { actor } = run();
    actor.send({ type: 'RESTORED', setting: stored({ expiresAt: T0 }), at: T0 });
    expect(actor.getSnapshot().value).toBe('inactive');
  });

  it('keeps a restored setting only for the time it has left', () => {
    const { clock, actor } = run();
    actor.send({ type: 'RESTORED', setting: stored({}), at: T0 });
    clock.increment(2 * HOUR - 1);
    expect(actor.getSnapshot().value).toBe('active');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('inactive');
  });
});
