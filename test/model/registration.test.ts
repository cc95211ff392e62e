import { expect } from 'vitest';
import {
  emptyForm,
  registrationMachine,
  validateRegistration,
  type RegistrationForm,
  type RegistrationSetup,
} from '../../src/machines/registration';
import { PREFECTURES } from '../../src/validation/prefectures';
import { describeModel } from './modelTest';

const validForm: RegistrationForm = {
  username: 'hanako',
  email: 'hanako@example.jp',
  password: 'a quiet morning by the sea',
  lastName: 'Yamada',
  firstName: 'Hanako',
  lastNameKana: '\u3084\u307e\u3060',
  firstNameKana: '\u306f\u306a\u3053',
  address: PREFECTURES[12]!.name,
  birthdate: '1955-05-05',
  sexCode: '2',
};

const setupOf = (overrides: Partial<RegistrationSetup>): RegistrationSetup => ({
  variant: 'standard',
  mode: null,
  inflowId: null,
  adminPetId: null,
  provider: null,
  prefill: {},
  ...overrides,
});

const standard = setupOf({ prefill: validForm });
const inflowWithoutId = setupOf({ variant: 'inflow' });
const inflowPet = setupOf({
  variant: 'inflow',
  inflowId: 'partner-1',
  mode: 'pet',
  adminPetId: 'p-1',
});
const external = setupOf({
  variant: 'external',
  mode: 'otherAdmin',
  provider: {
    providerName: 'line',
    providerUserId: 'U123',
    accessToken: 'assertion',
    expiredDate: null,
  },
  prefill: { ...validForm, password: '' },
});

const rejected = {
  response: {
    status: 422,
    data: {
      code: 'validation_failed',
      errors: [{ field: 'first_name_kana', code: 'kana_hiragana_only' }],
    },
  },
};
const serverDown = { response: { status: 503, data: { code: 'unavailable' } } };

describeModel('registration', {
  machine: registrationMachine,
  events: [
    { type: 'START', setup: standard },
    { type: 'START', setup: inflowWithoutId },
    { type: 'START', setup: inflowPet },
    { type: 'START', setup: external },
    { type: 'ACTIVATE', link: { token: 't-1', email: 'hanako@example.jp' } },
    { type: 'ACTIVATE', link: { token: '', email: 'hanako@example.jp' } },
    { type: 'EDIT', field: 'email', value: 'not-an-email' },
    { type: 'SUBMIT' },
    { type: 'BACK' },
    { type: 'xstate.done.actor.register' },
    { type: 'xstate.error.actor.register', error: rejected },
    { type: 'xstate.error.actor.register', error: serverDown },
    { type: 'xstate.done.actor.activate' },
    { type: 'xstate.error.actor.activate', error: { response: { status: 400 } } },
  ] as never,
  states: {
    idle: (snapshot) => {
      expect(snapshot.context.setup).toBeNull();
    },
    input: (snapshot, step) => {
      const { setup, form, errors } = snapshot.context;
      expect(setup).not.toBeNull();
      expect(setup).not.toEqual(inflowWithoutId);
      // Events the step ignored execute nothing; only the handled ones are checked.
      if (step.actions.length === 0) return;
      switch (step.event?.type) {
        case 'START':
          expect(form).toEqual({ ...emptyForm, ...setup!.prefill });
          break;
        case 'EDIT':
          expect(form.email).toBe('not-an-email');
          expect(errors.email).toBeUndefined();
          break;
        case 'SUBMIT':
          // Stayed: the shared rules refused the form, and say why per field.
          expect(errors).toEqual(validateRegistration(form, setup!.variant));
          expect(Object.keys(errors).length).toBeGreaterThan(0);
          break;
        case 'xstate.error.actor.register':
          expect(errors).toEqual({ firstNameKana: 'kana_hiragana_only' });
          break;
      }
    },
    confirm: (snapshot) => {
      const { form, setup, errors } = snapshot.context;
      expect(errors).toEqual({});
      expect(validateRegistration(form, setup!.variant)).toEqual({});
    },
    submitting: (snapshot) => {
      expect(snapshot.children.register).toBeDefined();
    },
    failed: (snapshot, step) => {
      expect(snapshot.children.register).toBeUndefined();
      if (step.event?.type === 'xstate.error.actor.register') {
        expect(step.event).toMatchObject({ error: serverDown });
      }
    },
    mailSent: (snapshot) => {
      expect(snapshot.status).toBe('done');
      expect(snapshot.context.setup).not.toBeNull();
    },
    activating: (snapshot) => {
      expect(snapshot.context.activation).toEqual({ token: 't-1', email: 'hanako@example.jp' });
      expect(snapshot.children.activate).toBeDefined();
    },
    activated: (snapshot) => {
      expect(snapshot.status).toBe('done');
      expect(snapshot.context.activation).not.toBeNull();
    },
    activationFailed: (snapshot) => {
      expect(snapshot.status).toBe('done');
      expect(snapshot.context.setup).toBeNull();
    },
    invalidUrl: (snapshot) => {
      expect(snapshot.status).toBe('done');
      expect(snapshot.context.setup).toBeNull();
    },
  },
});
