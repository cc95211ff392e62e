import { assign, setup } from 'xstate';
import { notProvided } from './notProvided';
import type { RegistrationRequest } from '../contract/registrationRequest';
import { registrationSchema, type ValidationCode } from '../contract/rules/account';

/**
 * Registration (spec §1, §4, §5): variants standard, inflow (partner link, needs
 * its inflowId) and external provider (a social sign-in the server verified); modes `pet`
 * and `otherAdmin` from the query. Steps input → confirm → submitting → mailSent; the link
 * in the mail opens the activation, which runs in the same chart (activating → activated).
 *
 * The chart waits in `idle` for START (the registration screen, with what its URL says) or
 * ACTIVATE (the activation screen, with the link's token and email).
 */
export type RegistrationVariant = 'standard' | 'inflow' | 'external';
export type RegistrationMode = 'pet' | 'otherAdmin' | null;

export interface RegistrationForm {
  username: string;
  email: string;
  password: string;
  lastName: string;
  firstName: string;
  lastNameKana: string;
  firstNameKana: string;
  address: string;
  birthdate: string;
  /** '1', '2', '3' or '9' (form value), empty until chosen. */
  sexCode: string;
  /** The uploaded profile picture's object name, empty for none. */
  userIconUrl: string;
}

export type RegistrationField = keyof RegistrationForm;
export type FieldErrors = Partial<Record<RegistrationField, ValidationCode>>;

/** The provider identity of the external-provider variant, as the server asserted it. */
export interface ProviderIdentity {
  providerName: string;
  providerUserId: string;
  /** The assertion the server signed after its own OAuth callback. */
  accessToken: string;
  expiredDate: string | null;
}

export interface RegistrationSetup {
  variant: RegistrationVariant;
  mode: RegistrationMode;
  inflowId: string | null;
  adminPetId: string | null;
  /** The pet page whose pet-admin setting is active in this browser, if any. */
  pendingPetPageId: string | null;
  provider: ProviderIdentity | null;
  /** What is already known (the provider's profile): shown in the form to edit. */
  prefill: Partial<RegistrationForm>;
}

/** What a submitted registration is made of. */
export interface RegistrationSubmission {
  setup: RegistrationSetup;
  form: RegistrationForm;
}

export interface ActivationLink {
  token: string;
  email: string;
}

export type RegistrationEvent =
  | { type: 'START'; setup: RegistrationSetup }
  | { type: 'ACTIVATE'; link: ActivationLink }
  | { type: 'EDIT'; field: RegistrationField; value: string }
  | { type: 'SUBMIT' }
  | { type: 'BACK' };

interface RegistrationContext {
  setup: RegistrationSetup | null;
  form: RegistrationForm;
  errors: FieldErrors;
  activation: ActivationLink | null;
}

export const emptyForm: RegistrationForm = {
  username: '',
  email: '',
  password: '',
  lastName: '',
  firstName: '',
  lastNameKana: '',
  firstNameKana: '',
  address: '',
  birthdate: '',
  sexCode: '',
  userIconUrl: '',
};

/** Form field → wire field (server errors name wire fields). */
const WIRE_FIELDS: Record<RegistrationField, string> = {
  username: 'username',
  email: 'email',
  password: 'password',
  lastName: 'last_name',
  firstName: 'first_name',
  lastNameKana: 'last_name_kana',
  firstNameKana: 'first_name_kana',
  address: 'address',
  birthdate: 'birthdate',
  sexCode: 'sex_code',
  userIconUrl: 'user_icon_url',
};

const FORM_FIELDS = Object.fromEntries(
  Object.entries(WIRE_FIELDS).map(([form, wire]) => [wire, form]),
) as Record<string, RegistrationField>;

/** The shared rules (src/contract/rules/account.ts) applied to the form; empty when valid. */
export function validateRegistration(
  form: RegistrationForm,
  variant: RegistrationVariant,
): FieldErrors {
  const wire = Object.fromEntries(
    Object.entries(WIRE_FIELDS).map(([field, wireField]) => [
      wireField,
      form[field as RegistrationField],
    ]),
  );
  // The provider vouches for an external sign-up: a password is then optional.
  if (variant === 'external' && form.password === '') delete wire.password;
  const schema =
    variant === 'external'
      ? registrationSchema().partial({ password: true })
      : registrationSchema();
  const result = schema.safeParse(wire);
  if (result.success) return {};
  return fieldErrorsOf(
    result.error.issues.map((issue) => ({
      field: String(issue.path[0] ?? ''),
      code: issue.message,
    })),
  );
}

/** 422 `errors: [{field, code}]` (wire fields) as form errors; unknown fields are dropped. */
export function fieldErrorsOf(errors: { field: string; code: string }[]): FieldErrors {
  const result: FieldErrors = {};
  for (const { field, code } of errors) {
    const formField = FORM_FIELDS[field];
    if (formField && !result[formField]) result[formField] = code as ValidationCode;
  }
  return result;
}

/** The field errors of a 422 answer, or undefined for any other failure. */
function rejectedFields(error: unknown): FieldErrors | undefined {
  const response = (error as { response?: { status?: number; data?: unknown } } | null)?.response;
  if (response?.status !== 422) return undefined;
  const errors = (response.data as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return undefined;
  const fields = fieldErrorsOf(errors as { field: string; code: string }[]);
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/**
 * The API request of a submitted registration: trimmed names, the sex code as a number, no
 * empty password (the external-provider variant may have none) and the variant's own part.
 */
export function registrationRequestOf({
  setup,
  form,
}: RegistrationSubmission): RegistrationRequest {
  const user = {
    username: form.username.trim(),
    email: form.email.trim(),
    password: form.password || undefined,
    firstName: form.firstName.trim(),
    lastName: form.lastName.trim(),
    firstNameKana: form.firstNameKana.trim(),
    lastNameKana: form.lastNameKana.trim(),
    address: form.address,
    birthdate: form.birthdate,
    sexCode: Number(form.sexCode),
    userIconUrl: form.userIconUrl || null,
    adminPetId: setup.adminPetId,
  };
  switch (setup.variant) {
    case 'inflow':
      return { variant: 'inflow', user, inflowId: setup.inflowId! };
    case 'external':
      return { variant: 'external', user, provider: setup.provider! };
    case 'standard':
      return { variant: 'standard', user };
  }
}

export const registrationMachine = setup({
  types: {
    context: {} as RegistrationContext,
    events: {} as RegistrationEvent,
  },
  actors: {
    register: notProvided<void, RegistrationRequest>('registration', 'register'),
    activate: notProvided<void, ActivationLink>('registration', 'activate'),
  },
  actions: {
    /** Ends the pet-admin setting: this registration has taken the pet page's link. */
    completePetAdmin: () => undefined,
  },
  guards: {
    /** A registration in pet mode for the very page whose pet-admin setting is active. */
    tookPetLink: ({ context }) =>
      context.setup?.mode === 'pet' &&
      context.setup.pendingPetPageId !== null &&
      context.setup.adminPetId === context.setup.pendingPetPageId,
    inflowWithoutId: (_, params: { setup: RegistrationSetup }) =>
      params.setup.variant === 'inflow' && !params.setup.inflowId,
    formValid: ({ context }) =>
      Object.keys(validateRegistration(context.form, context.setup!.variant)).length === 0,
    rejectedFields: (_, params: { error: unknown }) => rejectedFields(params.error) !== undefined,
    linkComplete: (_, params: { link: ActivationLink }) =>
      params.link.token !== '' && params.link.email !== '',
  },
}).createMachine({
  id: 'registration',
  context: { setup: null, form: emptyForm, errors: {}, activation: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        START: [
          {
            guard: { type: 'inflowWithoutId', params: ({ event }) => ({ setup: event.setup }) },
            target: 'invalidUrl',
          },
          {
            target: 'input',
            actions: assign({
              setup: ({ event }) => event.setup,
              form: ({ event }) => ({ ...emptyForm, ...event.setup.prefill }),
            }),
          },
        ],
        ACTIVATE: [
          {
            guard: { type: 'linkComplete', params: ({ event }) => ({ link: event.link }) },
            target: 'activating',
            actions: assign({ activation: ({ event }) => event.link }),
          },
          { target: 'activationFailed' },
        ],
      },
    },
    input: {
      on: {
        EDIT: {
          actions: assign({
            form: ({ context, event }) => ({ ...context.form, [event.field]: event.value }),
            errors: ({ context, event }) => ({ ...context.errors, [event.field]: undefined }),
          }),
        },
        SUBMIT: [
          { guard: 'formValid', target: 'confirm', actions: assign({ errors: {} }) },
          {
            actions: assign({
              errors: ({ context }) => validateRegistration(context.form, context.setup!.variant),
            }),
          },
        ],
      },
    },
    confirm: {
      on: {
        BACK: 'input',
        SUBMIT: 'submitting',
      },
    },
    submitting: {
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) =>
          registrationRequestOf({ setup: context.setup!, form: context.form }),
        onDone: [
          { guard: 'tookPetLink', target: 'mailSent', actions: 'completePetAdmin' },
          { target: 'mailSent' },
        ],
        onError: [
          {
            guard: { type: 'rejectedFields', params: ({ event }) => ({ error: event.error }) },
            target: 'input',
            actions: assign({ errors: ({ event }) => rejectedFields(event.error)! }),
          },
          { target: 'failed' },
        ],
      },
    },
    failed: {
      on: {
        SUBMIT: 'submitting',
        BACK: 'input',
      },
    },
    mailSent: { type: 'final' },
    activating: {
      invoke: {
        id: 'activate',
        src: 'activate',
        input: ({ context }) => context.activation!,
        onDone: 'activated',
        onError: 'activationFailed',
      },
    },
    activated: { type: 'final' },
    activationFailed: { type: 'final' },
    invalidUrl: { type: 'final' },
  },
});
