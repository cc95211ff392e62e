import { httpClients, type HttpClients } from '../http';
import type { UserDetail } from '../../contract/rules/account';
import type { RegistrationRequest } from '../../contract/registrationRequest';

/** Answer of POST /v1/login and of the activation link (GET /v1/user/confirm/…). */
export interface LoginResponse {
  userId: string;
  username: string;
  memorialPageId: string | null;
  userIconUrl: string | null;
  accessToken: string;
  refreshToken: string;
}

export type { UserDetail };

/** The account calls of the product API over given clients (the app's, or a test's). */
export function authApi({ http: client }: HttpClients) {
  return {
    /** POST /v1/login, form-encoded; a 401 here is wrong credentials, never a refresh. */
    login: async (credentials: { username: string; password: string }) =>
      (
        await client.post<LoginResponse>('/v1/login', new URLSearchParams(credentials), {
          skipAuthRefresh: true,
          authenticate: false,
        })
      ).data,

    /** POST /v1/user and its inflow and external-provider variants: 202 {detail}. */
    register: async (request: RegistrationRequest) => {
      switch (request.variant) {
        case 'standard':
          await client.post('/v1/user', request.user, { authenticate: false });
          return;
        case 'inflow':
          await client.post(
            '/v1/user/create_inflow_user',
            { ...request.user, adminPetId: undefined, inflowId: request.inflowId },
            { authenticate: false },
          );
          return;
        case 'external':
          await client.post(
            '/v1/user/create_user_with_external_provider',
            { userRequest: request.user, providerRequest: request.provider },
            { authenticate: false },
          );
          return;
      }
    },

    /** GET /v1/user/confirm/{token}/{email}: activates the account, answers a login. */
    activate: async (token: string, email: string) =>
      (
        await client.get<LoginResponse>(
          `/v1/user/confirm/${encodeURIComponent(token)}/${encodeURIComponent(email)}`,
          { authenticate: false },
        )
      ).data,

    /** POST /v1/user/resend_activation: always 202; an account not yet activated gets a link. */
    resendActivation: async (email: string) => {
      await client.post('/v1/user/resend_activation', { email }, { authenticate: false });
    },

    /** POST /v1/password_reset: always 202, whether or not the address has an account. */
    requestPasswordReset: async (email: string) => {
      await client.post('/v1/password_reset', { email }, { authenticate: false });
    },

    /** POST /v1/password_reset/confirm: sets the new password, signs out everywhere. */
    confirmPasswordReset: async (token: string, password: string) => {
      await client.post('/v1/password_reset/confirm', { token, password }, { authenticate: false });
    },

    /** GET /v1/user/{userId}: the profile, icon as a signed GET URL. */
    userDetail: async (userId: string) =>
      (await client.get<UserDetail>(`/v1/user/${encodeURIComponent(userId)}`)).data,

    /** DELETE /v1/user: deletes the signed-in member's account (with the fresh proof). */
    deleteAccount: async (currentPassword?: string) => {
      await client.delete('/v1/user', {
        data: currentPassword === undefined ? undefined : { currentPassword },
      });
    },
  };
}

export type AuthApi = ReturnType<typeof authApi>;

/** The account calls over the app's HTTP client. */
export const auth = authApi(httpClients);
