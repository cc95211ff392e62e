import { assign, fromPromise, setup } from 'xstate';
import type { RegistrationRequest } from '../../contract/registrationRequest';
import type { ValidationCode } from '../../contract/rules/account';

/**
 * Registration: variants standard, inflow (partner link, needs
 * its inflowId) and external provider (a social sign-in the server verified); modes `pet`
 * and `otherAdmin` from the query. Steps input → confirm → submitting → mailSent; the link
 * in the mail opens the activation, which runs in the same chart (activating → activated).
 *
 * The chart waits in `idle` for START (the registration screen, with its URL's query and the
 * pet page pending in this browser) or ACTIVATE (the activation screen, with the link's token
 * and email). The chart reads the variant from the query itself, completes the pet-admin
 * setting when the registration took its page, and shapes the request it sends.
 *
 * The form is checked by the shared account rules (contract/rules/account.ts), given with
 * `.provide()` as the guard `formValid` and the action `showFieldErrors`
 * (./registrationRules.ts), so this file imports nothing but xstate and pastes into the
 * Stately editor as it is.
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
  /** The password chosen when registering, once the server asked for it. */
  password?: string;
  /** A registration through a provider: the assertion of a new sign-in with it. */
  assertion?: string;
}

export type RegistrationEvent =
  | { type: 'START'; query: string; pendingPetPageId: string | null }
  | { type: 'ACTIVATE'; link: ActivationLink }
  | { type: 'EDIT'; field: RegistrationField; value: string }
  | { type: 'SUBMIT' }
  | { type: 'BACK' };

export interface RegistrationContext {
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
export const WIRE_FIELDS: Record<RegistrationField, string> = {
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

const truthy = (value: string | null) => value !== null && /^(true|1)$/i.test(value);

/**
 * The query values of the external-provider variant. The screen takes them out of the address
 * as soon as the chart has read them: the assertion works once and only in this browser, and
 * no history entry should keep it, nor the provider's profile.
 */
export const PROVIDER_QUERY_KEYS = [
  'provider',
  'providerUserId',
  'assertion',
  'email',
  'name',
  'expiredDate',
] as const;

/**
 * What the registration URL says (docs/client-auth.md):
 * - `inflow=True` or an `inflowId`: the partner-inflow variant (it needs the inflowId);
 * - `provider`, `providerUserId` and `assertion` (set by the server after a first social
 *   sign-in) with `email` and `name` to prefill: the external-provider variant;
 * - `pet=true` (with `adminPetId`, else the pet page being set up in this browser) or
 *   `otherAdmin=true`: the modes.
 */
export function registrationSetupFromQuery(
  query: string,
  pendingPetPageId: string | null,
): RegistrationSetup {
  const search = new URLSearchParams(query);
  const provider = search.get('provider');
  const providerUserId = search.get('providerUserId');
  const assertion = search.get('assertion');
  const external = Boolean(provider && providerUserId && assertion);
  const inflowId = search.get('inflowId');
  const inflow = !external && (search.get('inflow')?.toLowerCase() === 'true' || inflowId !== null);
  const mode = truthy(search.get('pet'))
    ? 'pet'
    : truthy(search.get('otherAdmin'))
      ? 'otherAdmin'
      : null;
  return {
    variant: external ? 'external' : inflow ? 'inflow' : 'standard',
    mode,
    inflowId: inflowId || null,
    // The inflow variant carries its inflow id instead (spec), so it takes no pet page's link.
    adminPetId: mode === 'pet' && !inflow ? search.get('adminPetId') || pendingPetPageId : null,
    pendingPetPageId,
    provider: external
      ? {
          providerName: provider!,
          providerUserId: providerUserId!,
          accessToken: assertion!,
          expiredDate: search.get('expiredDate'),
        }
      : null,
    prefill: external
      ? { email: search.get('email') ?? '', username: search.get('name') ?? '' }
      : {},
  };
}

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "registration" was not provided`);
  });

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
    register: notProvided<void, RegistrationRequest>('register'),
    activate: notProvided<void, ActivationLink>('activate'),
  },
  actions: {
    /** Ends the pet-admin setting: this registration has taken the pet page's link. */
    completePetAdmin: () => undefined,
    /** Puts what the shared rules refuse in the form into `errors`, field by field. */
    showFieldErrors: () => {
      throw new Error(
        'The action "showFieldErrors" of the machine "registration" was not provided',
      );
    },
  },
  guards: {
    /** A registration in pet mode for the very page whose pet-admin setting is active. */
    tookPetLink: ({ context }) =>
      context.setup?.mode === 'pet' &&
      context.setup.pendingPetPageId !== null &&
      context.setup.adminPetId === context.setup.pendingPetPageId,
    inflowWithoutId: (_, params: { setup: RegistrationSetup }) =>
      params.setup.variant === 'inflow' && !params.setup.inflowId,
    /** The shared rules accept the form for the variant. */
    formValid: (): boolean => {
      throw new Error('The guard "formValid" of the machine "registration" was not provided');
    },
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
            guard: {
              type: 'inflowWithoutId',
              params: ({ event }) => ({
                setup: registrationSetupFromQuery(event.query, event.pendingPetPageId),
              }),
            },
            target: 'invalidUrl',
          },
          {
            target: 'input',
            actions: assign(({ event }) => {
              const setup = registrationSetupFromQuery(event.query, event.pendingPetPageId);
              return { setup, form: { ...emptyForm, ...setup.prefill } };
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
          { actions: 'showFieldErrors' },
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
