import { describe, expect, it } from 'vitest';
import {
  emptyForm,
  fieldErrorsOf,
  registrationMachine,
  registrationRequestOf,
  registrationSetupFromQuery,
  type RegistrationSetup,
} from '../../src/machines/registration';
import { registrationRules, validateRegistration } from '../../src/machines/registrationRules';
import { toSnakeCase } from '../../src/services/http/casing';
import {
  registrationEvents,
  registrationFailures,
  registrationStarts,
  registrationStateKey,
  wireUser,
  validRegistrationForm,
  type RegistrationStart,
} from './flowEvents';
import { describeModel, type StepInfo } from './modelTest';

const validForm = validRegistrationForm;
const setupOf = (start: RegistrationStart): RegistrationSetup =>
  registrationSetupFromQuery(
    registrationStarts[start].query,
    registrationStarts[start].pendingPetPageId,
  );
const { unknownField, serverDown } = registrationFailures;

/** What each variant's register call sends. */
const expectedRequests: Partial<Record<RegistrationStart, unknown>> = {
  standard: { variant: 'standard', user: wireUser },
  otherPet: { variant: 'standard', user: { ...wireUser, admin_pet_id: 'p-9' } },
  // Pet mode without a page in the URL: the page whose pet-admin setting is active here.
  petLink: { variant: 'standard', user: { ...wireUser, admin_pet_id: 'p-1' } },
  // The inflow variant carries the partner's id instead of a pet page (spec).
  inflowPet: { variant: 'inflow', inflow_id: 'partner-1', user: wireUser },
  external: {
    variant: 'external',
    // The provider vouches for the person: no password is sent.
    user: { ...wireUser, password: undefined },
    provider: {
      provider_name: 'line',
      provider_user_id: 'U123',
      access_token: 'assertion',
      expired_date: null,
    },
  },
};
/** Which registration URL the path started with. */
const startedWith = (path: StepInfo[]): RegistrationStart => {
  const start = path.find((step) => step.event?.type === 'START')?.event as unknown as {
    query: string;
  };
  return (Object.keys(registrationStarts) as RegistrationStart[]).find(
    (name) => registrationStarts[name].query === start.query,
  )!;
};

describeModel('registration', {
  machine: registrationMachine.provide(registrationRules),
  events: registrationEvents,
  serializeState: registrationStateKey,
  states: {
    idle: (snapshot) => {
      expect(snapshot.context.setup).toBeNull();
    },
    input: (snapshot, step) => {
      const { setup, form, errors } = snapshot.context;
      expect(setup).not.toBeNull();
      expect(setup).not.toEqual(setupOf('inflowWithoutId'));
      // Events the step ignored execute nothing; only the handled ones are checked.
      if (step.transitions === 0) return;
      switch (step.event?.type) {
        case 'START':
          expect(form).toEqual({ ...emptyForm, ...setup!.prefill });
          break;
        case 'EDIT': {
          const { field, value } = step.event as unknown as { field: string; value: string };
          expect(form[field as keyof typeof form]).toBe(value);
          // The field just edited shows no error until the next check.
          expect(errors[field as keyof typeof errors]).toBeUndefined();
          break;
        }
        case 'SUBMIT':
          // The provider vouches for an external sign-up: no password is asked for.
          if (setup!.variant === 'external') expect(errors.password).toBeUndefined();
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
    submitting: (snapshot, step) => {
      expect(snapshot.children.register).toBeDefined();
      // Entered at this step (not an event it ignored): the call starts, with the request.
      if (!step.actions.includes('xstate.spawnChild')) return;
      expect(step.invoked.map((actor) => [actor.src, toSnakeCase(actor.input)])).toEqual([
        ['register', expectedRequests[startedWith(step.path)]],
      ]);
    },
    failed: (snapshot, step) => {
      expect(snapshot.children.register).toBeUndefined();
      if (step.event?.type === 'xstate.error.actor.register') {
        expect([serverDown, unknownField]).toContain(
          (step.event as unknown as { error: unknown }).error,
        );
      }
    },
    mailSent: (snapshot, step) => {
      expect(snapshot.status).toBe('done');
      expect(snapshot.context.setup).not.toBeNull();
      // Only a pet registration for the link's own page takes the pet-admin setting.
      if (step.event?.type === 'xstate.done.actor.register')
        expect(step.actions.filter((name) => name === 'completePetAdmin')).toEqual(
          startedWith(step.path) === 'petLink' ? ['completePetAdmin'] : [],
        );
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

describe('registration rules', () => {
  it('asks a password of every variant but the external provider', () => {
    const noPassword = { ...validForm, password: '' };
    expect(validateRegistration(noPassword, 'standard')).toEqual({ password: 'required' });
    expect(validateRegistration(noPassword, 'inflow')).toEqual({ password: 'required' });
    expect(validateRegistration(noPassword, 'external')).toEqual({});
    // A password the member does give is checked in every variant.
    expect(validateRegistration({ ...validForm, password: 'short' }, 'external')).toHaveProperty(
      'password',
    );
  });

  it('sends names trimmed and the first error of each known field', () => {
    const padded = { ...validForm, username: ' hanako ', email: ' hanako@example.jp ' };
    const request = registrationRequestOf({
      setup: setupOf('standard'),
      form: {
        ...padded,
        lastName: ' Yamada ',
        firstName: ' Hanako ',
        lastNameKana: ' \u3084\u307e\u3060 ',
        firstNameKana: ' \u306f\u306a\u3053 ',
      },
    });
    expect(toSnakeCase(request)).toEqual({ variant: 'standard', user: wireUser });
    expect(
      fieldErrorsOf([
        { field: 'email', code: 'email_invalid' },
        { field: 'email', code: 'required' },
        { field: 'icon', code: 'required' },
      ]),
    ).toEqual({ email: 'email_invalid' });
  });

  it('sends the uploaded profile picture as user_icon_url and takes its refusal back to it', () => {
    const request = registrationRequestOf({
      setup: setupOf('standard'),
      form: { ...validForm, userIconUrl: 'uploads/abcdefghijklmnopqrstuv.png' },
    });
    expect(toSnakeCase(request)).toEqual({
      variant: 'standard',
      user: { ...wireUser, user_icon_url: 'uploads/abcdefghijklmnopqrstuv.png' },
    });
    expect(fieldErrorsOf([{ field: 'user_icon_url', code: 'upload_missing' }])).toEqual({
      userIconUrl: 'upload_missing',
    });
  });
});
