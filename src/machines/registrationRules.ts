import { assign } from 'xstate';
import { registrationSchema } from '../../contract/rules/account';
import {
  fieldErrorsOf,
  WIRE_FIELDS,
  type FieldErrors,
  type RegistrationContext,
  type RegistrationEvent,
  type RegistrationField,
  type RegistrationForm,
  type RegistrationVariant,
} from './registration';

/** The shared rules (contract/rules/account.ts) applied to the form; empty when valid. */
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

const errorsOf = (context: RegistrationContext) =>
  validateRegistration(context.form, context.setup!.variant);

/** The registration chart's form checks, given to it with `.provide()`. */
export const registrationRules = {
  guards: {
    formValid: ({ context }: { context: RegistrationContext }) =>
      Object.keys(errorsOf(context)).length === 0,
  },
  actions: {
    showFieldErrors: assign<
      RegistrationContext,
      RegistrationEvent,
      unknown,
      RegistrationEvent,
      never
    >({
      errors: ({ context }) => errorsOf(context),
    }),
  },
};
