import { expect } from 'vitest';
import { memoryCreationMachine } from '../../src/machines/memoryCreation';
import { describeModel } from './modelTest';
import { ownActions } from './navigationSupport';

const opened: string[] = [];
const kanaError = { field: 'first_name_kana', code: 'kana_hiragana_only' };
const invalidKana = { response: { status: 422, data: { errors: [kanaError] } } };

describeModel('memoryCreation', {
  machine: memoryCreationMachine.provide({
    actions: { openMemorialPage: (_, { memorialPageId }) => void opened.push(memorialPageId) },
  }),
  input: { ownMemorialPageId: 'own-page' },
  events: [
    { type: 'CHOOSE', memoryType: 'self' },
    { type: 'CHOOSE', memoryType: 'other' },
    { type: 'CHOOSE', memoryType: 'pet' },
    {
      type: 'SUBMIT',
      profile: { first_name: 'ポチ', first_name_kana: 'ぽち', animal_kind: '柴犬' },
    },
    { type: 'BACK' },
    { type: 'xstate.done.actor.createMemorialPage', output: { memorialPageId: 'new-page' } },
    { type: 'xstate.error.actor.createMemorialPage', error: invalidKana },
    { type: 'xstate.error.actor.createMemorialPage', error: new Error('offline') },
    // A rejection that carries nothing is an unexpected failure too.
    { type: 'xstate.error.actor.createMemorialPage', error: undefined },
  ] as never,
  states: {
    choosingType: ({ context }) => {
      expect(context.type).toBeNull();
      expect(context.memorialPageId).toBeNull();
      // The form starts clean.
      expect(context.fieldErrors).toEqual([]);
      expect(context.failed).toBe(false);
    },
    editingProfile: ({ context }, { event, transitions }) => {
      expect(['other', 'pet']).toContain(context.type);
      if (event?.type === 'xstate.error.actor.createMemorialPage') {
        const error = (event as unknown as { error: unknown }).error;
        // Field problems go back to the form; anything else is an unexpected failure.
        expect(context.fieldErrors).toEqual(error === invalidKana ? [kanaError] : []);
        expect(context.failed).toBe(error !== invalidKana);
      }
      if (event?.type === 'CHOOSE' && transitions > 0)
        expect(context).toMatchObject({ fieldErrors: [], failed: false });
      // An unexpected failure never comes with field errors.
      if (context.failed) expect(context.fieldErrors).toEqual([]);
    },
    creating: ({ context, children }, { invoked, path }) => {
      expect(['other', 'pet']).toContain(context.type);
      expect(Object.keys(children)).toEqual(['createMemorialPage']);
      // The page is made of the kind last chosen and the profile as the form sent it.
      const chosen = [...path].reverse().find((step) => step.event?.type === 'CHOOSE')?.event as
        { memoryType: string } | undefined;
      for (const started of invoked)
        expect(started).toEqual({
          src: 'createMemorialPage',
          input: {
            type: chosen?.memoryType,
            profile: { first_name: 'ポチ', first_name_kana: 'ぽち', animal_kind: '柴犬' },
          },
        });
    },
    created: ({ context }, { event, actions }) => {
      const expected = context.type === 'self' ? 'own-page' : 'new-page';
      expect(context.memorialPageId).toBe(expected);
      // Arriving opens the page; events that arrive afterwards change nothing.
      if (ownActions(actions).length > 0) {
        expect(ownActions(actions)).toEqual(['openMemorialPage']);
        expect(opened.at(-1)).toBe(expected);
      }
      if (event?.type.startsWith('xstate.done')) {
        expect(ownActions(actions)).toEqual(['openMemorialPage']);
      }
    },
  },
});
