import { z } from 'zod';
import { currentPasswordField, userId } from './common';
import { endpoint, errorBody, noBody, named } from './endpoint';
import {
  emailChangeConfirmSchema,
  emailChangeSchema,
  externalRegistrationSchema,
  inflowRegistrationSchema,
  loginSchema,
  passwordChangeSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  registrationSchema,
  requiredText,
  type RegistrationSchemaOptions,
} from './rules/account';
import sample from './examples.json';

/** The account calls of the product API (docs/accounts.md, "API calls"). */

const TAG = 'Accounts';

/** Bodies a browser's form may post as well as JSON. */
const JSON_OR_FORM = ['application/json', 'application/x-www-form-urlencoded'];

/** The spec sends `sexCode` as well as `sex_code`; both name the same field. */
function renameSexCode(user: unknown): unknown {
  if (!user || typeof user !== 'object') return user;
  const { sexCode, ...rest } = user as Record<string, unknown>;
  return rest.sex_code === undefined && sexCode !== undefined
    ? { ...rest, sex_code: sexCode }
    : rest;
}

const withSexCodeAlias = <T extends z.ZodType>(schema: T) => z.preprocess(renameSexCode, schema);

const registrationExample = {
  username: sample.username,
  email: 'taro@example.com',
  password: 'correct horse battery',
  first_name: sample.firstName,
  last_name: sample.lastName,
  first_name_kana: sample.firstNameKana,
  last_name_kana: sample.lastNameKana,
  address: sample.address,
  birthdate: '1950-04-01',
  sex_code: 1,
  user_icon_url: null,
};

/**
 * The registration bodies, built with the rules' options: the contract's with today's date
 * of this machine and the shared password rule, the server's with its clock and its
 * breached-password list (server/routes/accounts/v1.ts).
 */
export const registrationBodies = (options: RegistrationSchemaOptions = {}) => ({
  standard: withSexCodeAlias(registrationSchema(options)).meta({
    examples: [{ ...registrationExample, admin_pet_id: null }],
  }),
  inflow: withSexCodeAlias(inflowRegistrationSchema(options)).meta({
    examples: [{ ...registrationExample, inflow_id: 'partner-42' }],
  }),
  // The alias inside the external-provider variant's `user_request`.
  external: z
    .preprocess(
      (body) =>
        body && typeof body === 'object' && 'user_request' in body
          ? { ...body, user_request: renameSexCode(body.user_request) }
          : body,
      externalRegistrationSchema(options),
    )
    .meta({
      examples: [
        {
          user_request: { ...registrationExample, password: undefined },
          provider_request: {
            provider_name: 'google',
            provider_user_id: '108234567890',
            access_token: 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0…',
            expired_date: null,
          },
        },
      ],
    }),
});

export const passwordResetConfirmBody = (password?: z.ZodType<string>) =>
  passwordResetConfirmSchema(password).meta({
    examples: [{ token: 'k3Jd…', password: 'a new long passphrase' }],
  });

export const passwordChangeBody = (password?: z.ZodType<string>) =>
  passwordChangeSchema(password).meta({
    examples: [{ current_password: '••••••••', new_password: 'a new long passphrase' }],
  });

const registrationBody = registrationBodies();

/** Who signed in and their tokens: the answer of a sign-in and of an activation link. */
export const signInAnswer = z
  .object({
    userId,
    username: z.string(),
    memorialPageId: z.string().nullable(),
    userIconUrl: z.string().nullable(),
    accessToken: z.string(),
    refreshToken: z.string(),
  })
  .meta({
    id: 'SignIn',
    examples: [
      {
        userId: '0b9f3c1e-5d2a-4c77-9a51-3f0e8d2b6a14',
        username: sample.username,
        memorialPageId: null,
        userIconUrl: null,
        accessToken: 'eyJhbGciOiJIUzI1NiJ9…',
        refreshToken: 'r1.k3Jd…',
      },
    ],
  });

export type SignInAnswer = z.infer<typeof signInAnswer>;

/** A member's public profile, the icon as a signed GET URL. */
export const userDetail = z
  .object({
    id: userId,
    username: z.string(),
    lastName: z.string(),
    firstName: z.string(),
    lastNameKana: z.string(),
    firstNameKana: z.string(),
    userIconUrl: z.string().nullable(),
  })
  .meta({
    id: 'UserDetail',
    examples: [
      {
        id: '0b9f3c1e-5d2a-4c77-9a51-3f0e8d2b6a14',
        username: sample.username,
        lastName: sample.lastName,
        firstName: sample.firstName,
        lastNameKana: sample.lastNameKana,
        firstNameKana: sample.firstNameKana,
        userIconUrl: null,
      },
    ],
  });

export type UserDetail = z.infer<typeof userDetail>;

/** 202: the work goes on by mail. */
const accepted = z.object({ detail: z.string() }).meta({
  id: 'Accepted',
  examples: [{ detail: 'accepted; see your mail' }],
});

const tokenPair = z.object({ accessToken: z.string(), refreshToken: z.string() });

const refreshBody = z
  .object({ refresh_token: requiredText(200) })
  .meta({ examples: [{ refresh_token: 'r1.k3Jd…' }] });

const emailBody = passwordResetRequestSchema.meta({ examples: [{ email: 'taro@example.com' }] });

const tokenBody = z
  .object({ token: requiredText(2000) })
  .meta({ examples: [{ token: 'eyJhbGciOiJkaXIi…' }] });

export const accountEndpoints = named({
  logIn: endpoint({
    method: 'POST',
    path: '/v1/login',
    summary: 'Signs in with e-mail (`username`) and password; 423 and 429 while the throttle holds',
    tag: TAG,
    caller: 'public',
    body: loginSchema.meta({
      examples: [{ username: 'taro@example.com', password: 'correct horse battery' }],
    }),
    consumes: JSON_OR_FORM,
    responses: {
      200: signInAnswer,
      401: errorBody,
      403: errorBody,
      423: errorBody,
      429: errorBody,
    },
  }),
  refresh: endpoint({
    method: 'POST',
    path: '/v1/refresh',
    summary: 'Spends a refresh token for a new pair; a token used twice ends its whole family',
    tag: TAG,
    caller: 'public',
    body: refreshBody,
    responses: { 200: tokenPair, 401: errorBody },
  }),
  logOut: endpoint({
    method: 'POST',
    path: '/v1/logout',
    summary: "Revokes the refresh token's family",
    tag: TAG,
    caller: 'public',
    body: refreshBody,
    responses: { 204: noBody },
  }),
  logOutEverywhere: endpoint({
    method: 'POST',
    path: '/v1/logout/everywhere',
    summary:
      'Ends every session of the caller on every device: refresh tokens revoked, and every access token issued so far refused from now on',
    tag: TAG,
    caller: 'member',
    responses: { 204: noBody },
  }),
  register: endpoint({
    method: 'POST',
    path: '/v1/user',
    summary: 'Registers an account; the activation link goes by mail',
    tag: TAG,
    caller: 'public',
    body: registrationBody.standard,
    responses: { 202: accepted },
    rateLimited: true,
  }),
  registerByInflow: endpoint({
    method: 'POST',
    path: '/v1/user/create_inflow_user',
    summary: "Registers an account that came through a partner's inflow",
    tag: TAG,
    caller: 'public',
    body: registrationBody.inflow,
    responses: { 202: accepted },
    rateLimited: true,
  }),
  registerWithProvider: endpoint({
    method: 'POST',
    path: '/v1/user/create_user_with_external_provider',
    summary:
      "Registers an account for a social identity; `access_token` is this server's assertion, spent once, with the binding cookie of the browser it was issued to",
    tag: TAG,
    caller: 'public',
    body: registrationBody.external,
    responses: { 202: accepted, 401: errorBody, 409: errorBody },
    rateLimited: true,
  }),
  activate: endpoint({
    method: 'GET',
    path: '/v1/user/confirm/:token/:email',
    summary:
      'The activation link alone: answers what the registration needs (activation_password_required, activation_provider_required)',
    tag: TAG,
    caller: 'public',
    params: z.object({ token: z.string().max(200), email: z.string().max(254) }),
    responses: { 200: signInAnswer, 400: errorBody },
  }),
  activateWithPassword: endpoint({
    method: 'POST',
    path: '/v1/user/confirm/:token/:email',
    summary:
      'The activation link with its proof: the password chosen when registering, or for a registration through a provider a new sign-in with that identity; activates the account and signs in',
    tag: TAG,
    caller: 'public',
    params: z.object({ token: z.string().max(200), email: z.string().max(254) }),
    body: z
      .object({
        password: z.string().max(1000).optional().meta({
          description: 'The password chosen when registering, for a registration made with one.',
        }),
        provider_assertion: z.string().max(4096).optional().meta({
          description:
            "For a registration through a provider: the server's assertion of a new sign-in with that identity, sent with its browser's binding cookie.",
        }),
      })
      .meta({ examples: [{ password: 'correct horse battery' }] }),
    responses: { 200: signInAnswer, 400: errorBody },
    rateLimited: true,
  }),
  resendActivation: endpoint({
    method: 'POST',
    path: '/v1/user/resend_activation',
    summary: 'Mails a new activation link to an account not yet activated (always 202)',
    tag: TAG,
    caller: 'public',
    body: emailBody,
    responses: { 202: accepted },
    rateLimited: true,
  }),
  requestPasswordReset: endpoint({
    method: 'POST',
    path: '/v1/password_reset',
    summary: 'Mails a reset link when the address has an account (always 202)',
    tag: TAG,
    caller: 'public',
    body: emailBody,
    responses: { 202: accepted },
    rateLimited: true,
  }),
  confirmPasswordReset: endpoint({
    method: 'POST',
    path: '/v1/password_reset/confirm',
    summary: 'Sets the new password from a reset link and ends every session',
    tag: TAG,
    caller: 'public',
    body: passwordResetConfirmBody(),
    responses: { 204: noBody, 400: errorBody },
  }),
  readUser: endpoint({
    method: 'GET',
    path: '/v1/user/:userId',
    summary: "A member's public profile",
    tag: TAG,
    caller: 'member',
    params: z.object({ userId: z.string() }),
    responses: { 200: userDetail, 404: errorBody },
  }),
  deleteAccount: endpoint({
    method: 'DELETE',
    path: '/v1/user',
    summary: "Deletes the caller's account (a sensitive change: fresh proof)",
    tag: TAG,
    caller: 'member',
    body: z
      .object(currentPasswordField)
      .nullish()
      .meta({ examples: [{ current_password: '••••••••' }] }),
    responses: { 204: noBody },
    freshProof: true,
  }),
  signInWithAssertion: endpoint({
    method: 'GET',
    path: '/v1/tmp-return-jwt',
    summary:
      "Signs in a linked social identity by this server's provider assertion (once, with the binding cookie of the browser it was issued to)",
    tag: TAG,
    caller: 'public',
    query: z.object({ email: z.string().optional(), assertion: z.string().optional() }),
    // 403 account_memorialized: the member's death was released (a restoration link is mailed).
    responses: { 200: signInAnswer, 401: errorBody, 403: errorBody },
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/v1/mypage/password',
    summary:
      'Changes the password and ends every other session; a browser session keeps the refresh token in its cookie',
    tag: TAG,
    caller: 'member',
    body: passwordChangeBody(),
    responses: {
      200: z.object({ accessToken: z.string(), refreshToken: z.string().optional() }),
      423: errorBody,
      429: errorBody,
    },
  }),
  requestEmailChange: endpoint({
    method: 'POST',
    path: '/v1/mypage/email',
    summary: 'Mails a confirmation link to the new address (a sensitive change: fresh proof)',
    tag: TAG,
    caller: 'member',
    body: emailChangeSchema
      .extend(currentPasswordField)
      .meta({ examples: [{ current_password: '••••••••', new_email: 'new@example.com' }] }),
    responses: { 202: accepted },
    rateLimited: true,
    freshProof: true,
  }),
  confirmEmailChange: endpoint({
    method: 'POST',
    path: '/v1/mypage/email/confirm',
    summary: 'The confirmation link: the new address becomes the sign-in address',
    tag: TAG,
    caller: 'public',
    body: emailChangeConfirmSchema.meta({ examples: [{ token: 'k3Jd…' }] }),
    responses: { 200: z.object({ email: z.string() }), 400: errorBody, 409: errorBody },
  }),
  reportChange: endpoint({
    method: 'POST',
    path: '/v1/account/change_report',
    summary:
      '"This was not me" from a change notice\'s single-use link: ends every session, undoes an e-mail change; refused (409) once a later change was made',
    tag: TAG,
    caller: 'public',
    body: tokenBody,
    responses: {
      200: z.object({
        change: z.string().meta({ description: 'The sensitive change reported' }),
        emailRestored: z.boolean(),
      }),
      400: errorBody,
      409: errorBody,
    },
  }),
});
