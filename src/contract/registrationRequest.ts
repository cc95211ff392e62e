/**
 * What a registration sends (spec §3), in its three variants: built by the registration
 * statechart, sent by the account API (`src/services/api/auth.ts`).
 */

/** The registration payload (spec §3), camelCase here, snake_case on the wire. */
export interface RegistrationPayload {
  username: string;
  email: string;
  /** Optional only in the external-provider variant (the provider vouches for the person). */
  password?: string;
  firstName: string;
  lastName: string;
  firstNameKana: string;
  lastNameKana: string;
  address: string;
  birthdate: string;
  sexCode: number;
  userIconUrl?: string | null;
  adminPetId?: string | null;
}

/** The provider identity of the external-provider variant, as the server verified it. */
export interface ProviderRequest {
  providerName: string;
  providerUserId: string;
  accessToken: string;
  expiredDate: string | null;
}

export type RegistrationRequest =
  | { variant: 'standard'; user: RegistrationPayload }
  | { variant: 'inflow'; user: RegistrationPayload; inflowId: string }
  | { variant: 'external'; user: RegistrationPayload; provider: ProviderRequest };
