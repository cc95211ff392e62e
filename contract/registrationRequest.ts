import type { z } from 'zod';
import type { CamelKeys } from './endpoint';
import type { externalRegistrationSchema, providerRequestSchema } from './rules/account';

/**
 * What a registration sends, in its three variants: built by the registration
 * statechart, sent by the account API (`src/services/api/auth.ts`); inferred from the wire's
 * schemas, camelCase as the browser writes it.
 */

/** The registration payload: the password is optional only in the external-provider variant. */
export type RegistrationPayload = CamelKeys<
  z.input<ReturnType<typeof externalRegistrationSchema>>['user_request']
>;

/** The provider identity of the external-provider variant, as the server verified it. */
export type ProviderRequest = CamelKeys<z.input<typeof providerRequestSchema>>;

export type RegistrationRequest =
  | { variant: 'standard'; user: RegistrationPayload }
  | { variant: 'inflow'; user: RegistrationPayload; inflowId: string }
  | { variant: 'external'; user: RegistrationPayload; provider: ProviderRequest };
