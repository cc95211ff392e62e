import { assign, setup } from 'xstate';

/**
 * The pet-admin setting: a link to become an admin of a pet's memorial
 * page sets targetMemorialPageEncodedId; the setting is active only while not completed and
 * before expiresAt, 24 hours after it was set. A registration in `pet` mode completes it
 * (the server makes the new member an admin of that page); completion or the expiry ends it.
 *
 * One actor runs for the whole page (src/services/clientState/petAdminSetting.ts), so the
 * expiry fires whichever screen is open; the registration reads the pending pet page from
 * its state (`active`) alone. Time comes in with the events (`at` of RESTORED and SET) and the
 * expiry is a delayed transition, so the machine stays pure and a test moves a simulated clock.
 */
const LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface PetAdminSetting {
  targetMemorialPageEncodedId: string | null;
  /** Epoch milliseconds. */
  expiresAt: number | null;
  completed: boolean;
}

export interface PetAdminContext extends PetAdminSetting {
  /** When the machine last learned the time (start or SET); the expiry timer counts from it. */
  now: number;
}

export type PetAdminEvent =
  /** The persisted memorialAdmin slice has been restored (client state, at start). */
  | { type: 'RESTORED'; setting: PetAdminSetting; at: number }
  | { type: 'SET'; targetMemorialPageEncodedId: string; at: number }
  | { type: 'COMPLETE' };

export const emptyPetAdminSetting: PetAdminSetting = {
  targetMemorialPageEncodedId: null,
  expiresAt: null,
  completed: false,
};

const settingOf = ({ targetMemorialPageEncodedId, expiresAt, completed }: PetAdminContext) => ({
  targetMemorialPageEncodedId,
  expiresAt,
  completed,
});
const persist = {
  type: 'persistSetting',
  params: ({ context }: { context: PetAdminContext }) => settingOf(context),
} as const;

export const petAdminMachine = setup({
  types: {
    context: {} as PetAdminContext,
    events: {} as PetAdminEvent,
  },
  actions: {
    /** Writes the setting back to the persisted memorialAdmin slice. */
    persistSetting: (_, _params: PetAdminSetting) => undefined,
    restoreSetting: assign(({ event }) =>
      event.type === 'RESTORED' ? { ...event.setting, now: event.at } : {},
    ),
    startSetting: assign(({ event }) =>
      event.type === 'SET'
        ? {
            targetMemorialPageEncodedId: event.targetMemorialPageEncodedId,
            expiresAt: event.at + LIFETIME_MS,
            completed: false,
            now: event.at,
          }
        : {},
    ),
    markCompleted: assign({ completed: true }),
    clearSetting: assign(emptyPetAdminSetting),
  },
  guards: {
    restoredCompleted: ({ event }) => event.type === 'RESTORED' && event.setting.completed,
    /** Not completed, names a page, and restored before it expires. */
    restoredActive: ({ event }) =>
      event.type === 'RESTORED' &&
      !event.setting.completed &&
      event.setting.targetMemorialPageEncodedId !== null &&
      event.setting.expiresAt !== null &&
      event.at < event.setting.expiresAt,
  },
  delays: {
    untilExpiry: ({ context }) => Math.max(0, (context.expiresAt ?? context.now) - context.now),
  },
}).createMachine({
  id: 'petAdmin',
  context: { ...emptyPetAdminSetting, now: 0 },
  initial: 'inactive',
  on: {
    SET: { target: '.active', actions: ['startSetting', persist] },
  },
  states: {
    inactive: {
      on: {
        // The persisted setting decides where the machine stands; an expired one is dropped.
        RESTORED: [
          { guard: 'restoredCompleted', target: 'completed', actions: 'restoreSetting' },
          { guard: 'restoredActive', target: 'active', actions: 'restoreSetting' },
          { actions: ['clearSetting', persist] },
        ],
      },
    },
    active: {
      after: { untilExpiry: { target: 'inactive', actions: ['clearSetting', persist] } },
      on: { COMPLETE: { target: 'completed', actions: ['markCompleted', persist] } },
    },
    completed: {},
  },
});
