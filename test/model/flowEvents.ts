/**
 * The events each card flow's paths are generated from, shared by its model test (the bare
 * machine) and its replays in the UI and the browser, so that all three walk the same paths.
 */
import type { SnapshotFrom } from 'xstate';
import type { InvitationEvent, SharedLink } from '../../src/machines/invitation';
import {
  emptyForm,
  type RegistrationEvent,
  type RegistrationField,
  type RegistrationForm,
  type RegistrationVariant,
  type registrationMachine,
} from '../../src/machines/registration';
import type {
  NavigationTarget,
  UnsavedChangesGuardEvent,
} from '../../src/machines/unsavedChangesGuard';

/** Pages of the app: a route, and a page with a hash (the browser replay's start page). */
export const routeTarget: NavigationTarget = { href: '/mypage', isHashUrl: false };
export const hashTarget: NavigationTarget = { href: '/dashboard#news', isHashUrl: true };

export const unsavedChangesGuardEvents: UnsavedChangesGuardEvent[] = [
  { type: 'FORM.CHANGED' },
  { type: 'FORM.SAVED' },
  { type: 'NAVIGATE', target: routeTarget },
  { type: 'NAVIGATE', target: hashTarget },
  { type: 'CONFIRM' },
  { type: 'CANCEL' },
];

/** The member's details, valid for every variant (family names in Latin letters, plainly). */
export const validRegistrationForm: RegistrationForm = {
  username: 'hanako',
  email: 'hanako@example.jp',
  password: 'a quiet morning by the sea',
  lastName: 'Yamada',
  firstName: 'Hanako',
  lastNameKana: '\u3084\u307e\u3060',
  firstNameKana: '\u306f\u306a\u3053',
  // Tokyo, as the prefecture list names it.
  address: '\u6771\u4eac\u90fd',
  birthdate: '1955-05-05',
  sexCode: '2',
  userIconUrl: '',
};

/** The order a member fills the form in (the profile picture is optional). */
const FILL_ORDER: RegistrationField[] = [
  'username',
  'email',
  'password',
  'lastName',
  'firstName',
  'lastNameKana',
  'firstNameKana',
  'address',
  'birthdate',
  'sexCode',
];

/** What each registration URL of the model is: its query and the pet page pending here. */
export const registrationStarts = {
  standard: { query: 'register=true', pendingPetPageId: null },
  inflowWithoutId: { query: 'register=true&inflow=True', pendingPetPageId: null },
  /** A pet registration for the page whose pet-admin link this browser holds: it takes the link. */
  petLink: { query: 'pet=true', pendingPetPageId: 'p-1' },
  /** A partner's pet registration while a link is held: inflow carries its id, not the link. */
  inflowPet: { query: 'inflowId=partner-1&pet=true', pendingPetPageId: 'p-1' },
  /** A pet registration naming another page than the one of the link held here. */
  otherPet: { query: 'pet=true&adminPetId=p-9', pendingPetPageId: 'p-1' },
  external: {
    query:
      'otherAdmin=true&provider=line&providerUserId=U123&assertion=assertion&email=hanako%40example.jp&name=hanako',
    pendingPetPageId: null,
  },
} as const;
export type RegistrationStart = keyof typeof registrationStarts;

/** The fields still to fill, in order (an external sign-up has no password to give). */
export function unfilledFields(form: RegistrationForm, variant: RegistrationVariant) {
  return FILL_ORDER.filter(
    (field) =>
      form[field] !== validRegistrationForm[field] &&
      !(variant === 'external' && field === 'password'),
  );
}

/** A 422 naming a field, one naming none, and a server that is down. */
export const registrationFailures = {
  rejected: {
    response: {
      status: 422,
      data: {
        code: 'validation_failed',
        errors: [{ field: 'first_name_kana', code: 'kana_hiragana_only' }],
      },
    },
  },
  unknownField: {
    response: { status: 422, data: { errors: [{ field: 'icon', code: 'required' }] } },
  },
  serverDown: { response: { status: 503, data: { code: 'unavailable' } } },
};

/** The form as the registration URL left it. */
const untouched = ({ context }: SnapshotFrom<typeof registrationMachine>) =>
  context.setup !== null &&
  JSON.stringify(context.form) === JSON.stringify({ ...emptyForm, ...context.setup.prefill });

/** The member's details as the wire carries them (snake_case, the sex code a number). */
export const wireUser = {
  username: 'hanako',
  email: 'hanako@example.jp',
  password: 'a quiet morning by the sea',
  first_name: 'Hanako',
  last_name: 'Yamada',
  first_name_kana: '\u306f\u306a\u3053',
  last_name_kana: '\u3084\u307e\u3060',
  address: '\u6771\u4eac\u90fd',
  birthdate: '1955-05-05',
  sex_code: 2,
  user_icon_url: null,
  admin_pet_id: null,
};

/**
 * How the registration paths tell states apart: the form counts by what is still to fill, so
 * filling it is a line, not every order.
 */
export const registrationStateKey = (snapshot: SnapshotFrom<typeof registrationMachine>) =>
  JSON.stringify({
    value: snapshot.value,
    context: { ...snapshot.context, form: undefined },
    unfilled: snapshot.context.setup
      ? unfilledFields(snapshot.context.form, snapshot.context.setup.variant)
      : [],
    email: snapshot.context.form.email,
  });

/**
 * The registration model's events: the member fills the form field by field in one order
 * (so the graph stays a line, not every order of eleven fields), asks to confirm when it is
 * empty or complete, and spoils the email of a complete form once.
 */
export function registrationEvents(
  snapshot: SnapshotFrom<typeof registrationMachine>,
): RegistrationEvent[] {
  const { setup, form } = snapshot.context;
  const inInput = snapshot.matches('input');
  const unfilled = setup ? unfilledFields(form, setup.variant) : [];
  const next = unfilled[0];
  if (snapshot.matches('idle'))
    return [
      ...Object.values(registrationStarts).map((start) => ({ type: 'START' as const, ...start })),
      { type: 'ACTIVATE', link: { token: 't-1', email: 'hanako@example.jp' } },
      { type: 'ACTIVATE', link: { token: '', email: 'hanako@example.jp' } },
    ];
  if (inInput)
    return [
      ...(next ? [{ type: 'EDIT' as const, field: next, value: validRegistrationForm[next] }] : []),
      ...(next ? [] : [{ type: 'EDIT' as const, field: 'email' as const, value: 'not-an-email' }]),
      ...(!next || untouched(snapshot) || form.email === 'not-an-email'
        ? [{ type: 'SUBMIT' as const }]
        : []),
    ];
  return [
    { type: 'SUBMIT' },
    { type: 'BACK' },
    { type: 'xstate.done.actor.register' },
    ...Object.values(registrationFailures).map((error) => ({
      type: 'xstate.error.actor.register',
      error,
    })),
    { type: 'xstate.done.actor.activate' },
    { type: 'xstate.error.actor.activate', error: { response: { status: 400 } } },
  ] as RegistrationEvent[];
}

/** A shared invitation link of the model: both halves present unless a field says otherwise. */
export const invitationLink = (fields: Partial<SharedLink>) =>
  ({
    type: 'LINK',
    shareToken: 'share-token',
    invitingUserId: 'inviter',
    setAdmin: false,
    pet: false,
    ...fields,
  }) as const;

const invitationDone = (id: string, output?: unknown) => ({
  type: `xstate.done.actor.${id}`,
  output,
});
const invitationFailed = (id: string) => ({
  type: `xstate.error.actor.${id}`,
  error: new Error('404'),
});

/** The invitation model's events: the links, the visitor's choices, every call's outcomes. */
export const invitationEvents = [
  invitationLink({ setAdmin: true }),
  invitationLink({ setAdmin: false }),
  invitationLink({ setAdmin: true, pet: true }),
  invitationLink({ shareToken: null }),
  invitationLink({ invitingUserId: null }),
  { type: 'LOGGED_IN', userId: 'invitee' },
  { type: 'REGISTER' },
  { type: 'SIGN_IN' },
  invitationDone('validateShareToken', { isValid: true }),
  invitationDone('validateShareToken', { isValid: false }),
  invitationFailed('validateShareToken'),
  invitationDone('connectToInvitingUser'),
  invitationFailed('connectToInvitingUser'),
  invitationDone('resolveMemorialPage', 'inviters-page'),
  invitationFailed('resolveMemorialPage'),
  invitationDone('addMemorialPageAdmin'),
  invitationFailed('addMemorialPageAdmin'),
  invitationDone('expireShareToken'),
  invitationFailed('expireShareToken'),
] as unknown as InvitationEvent[];
