import { accountEndpoints as endpoints } from '../../../contract/accounts';
import type { RegistrationRequest } from '../../../contract/registrationRequest';
import { httpClients, type HttpClients } from '../http';
import { requestEndpoint } from '../http/callEndpoint';

export type { UserDetail } from '../../../contract/accounts';

/** The account calls of the product API over given clients (the app's, or a test's). */
export function authApi({ http: client }: HttpClients) {
  // These calls are made signed out: they carry no bearer and a 401 starts no refresh.
  const signedOut = { authenticate: false } as const;
  return {
    /** POST /v1/login; a 401 here is wrong credentials, never a refresh. */
    login: (credentials: { username: string; password: string }) =>
      requestEndpoint(
        client,
        endpoints.logIn,
        { body: credentials },
        { ...signedOut, skipAuthRefresh: true },
      ),

    /** POST /v1/user and its inflow and external-provider variants: 202 {detail}. */
    register: async (request: RegistrationRequest) => {
      switch (request.variant) {
        case 'standard':
          await requestEndpoint(client, endpoints.register, { body: request.user }, signedOut);
          return;
        case 'inflow':
          await requestEndpoint(
            client,
            endpoints.registerByInflow,
            { body: { ...request.user, adminPetId: undefined, inflowId: request.inflowId } },
            signedOut,
          );
          return;
        case 'external':
          await requestEndpoint(
            client,
            endpoints.registerWithProvider,
            { body: { userRequest: request.user, providerRequest: request.provider } },
            signedOut,
          );
          return;
      }
    },

    /** POST /v1/user/resend_activation: always 202; an account not yet activated gets a link. */
    resendActivation: async (email: string) => {
      await requestEndpoint(client, endpoints.resendActivation, { body: { email } }, signedOut);
    },

    /** POST /v1/password_reset: always 202, whether or not the address has an account. */
    requestPasswordReset: async (email: string) => {
      await requestEndpoint(client, endpoints.requestPasswordReset, { body: { email } }, signedOut);
    },

    /** POST /v1/password_reset/confirm: sets the new password, signs out everywhere. */
    confirmPasswordReset: async (token: string, password: string) => {
      await requestEndpoint(
        client,
        endpoints.confirmPasswordReset,
        { body: { token, password } },
        signedOut,
      );
    },

    /** GET /v1/user/{userId}: the profile, icon as a signed GET URL. */
    userDetail: (userId: string) =>
      requestEndpoint(client, endpoints.readUser, { params: { userId } }),

    /** DELETE /v1/user: deletes the signed-in member's account (with the fresh proof). */
    deleteAccount: async (currentPassword?: string) => {
      await requestEndpoint(client, endpoints.deleteAccount, {
        body: currentPassword === undefined ? undefined : { currentPassword },
      });
    },
  };
}

export type AuthApi = ReturnType<typeof authApi>;

/** The account calls over the app's HTTP client. */
export const auth = authApi(httpClients);
