import { z } from 'zod';
import { currentPasswordField, timestamp, userId } from './common';
import { endpoint, errorBody, fileBody, noBody, named } from './endpoint';
import {
  ACCOUNT_AFTER_DEATH_VALUES,
  accountRestorationSchema,
  administratorReportSchema,
  cancelSuspicionSchema,
  certificateRegistrationSchema,
  CONFIRMATION_RULE_VALUES,
  DEATH_STATE_VALUES,
  deathConfirmationSchema,
  deathSettingsSchema,
  deviceTokenDeleteSchema,
  deviceTokenSchema,
  IDENTITY_STATUS_VALUES,
  integrationLinkSchema,
  integrationReportSchema,
  PAGE_AFTER_DEATH_VALUES,
  restorationLinkSchema,
  restorationProofSchema,
  SIGNAL_SOURCE_VALUES,
  signRequestSchema,
} from './rules/deathDetection';
import { RELATIONSHIP_VALUES } from './rules/social';

/**
 * Death detection, identity verification, device tokens and the check-in link
 * (docs/death-detection.md). `/v1/fpos/*` keeps the names partners already call.
 */

const TAG = 'Death detection';
const IDENTITY_TAG = 'Identity verification';

const relationship = z.enum(RELATIONSHIP_VALUES);
const calendarDate = z.string().meta({ format: 'date', examples: ['2026-11-20'] });

export const identityStatus = z
  .object({
    authStatus: z.enum(IDENTITY_STATUS_VALUES),
    certificate: z
      .object({ fingerprint: z.string(), subjectEmail: z.string(), notAfter: timestamp })
      .nullable(),
    revokedReason: z.enum(['expired', 'revoked']).nullable(),
  })
  .meta({ id: 'IdentityStatus' });

export const registrationChallenge = z.object({
  challengeId: z.string(),
  challenge: z.string(),
  mailAddress: z.string(),
  expiresAt: timestamp,
});

/** The death-suspected user: `grace` when the confirmations are complete already. */
export const suspectedUser = z.object({
  userId,
  memorialPageId: z.string().nullable(),
  lastName: z.string(),
  firstName: z.string(),
  state: z.enum(['suspected', 'grace']),
});
export type SuspectedUser = z.infer<typeof suspectedUser>;

/** Every field null when nobody is suspected. */
export const deathSuspectedUser = z
  .object({
    userId: userId.nullable(),
    memorialPageId: z.string().nullable(),
    lastName: z.string().nullable(),
    firstName: z.string().nullable(),
    state: z.enum(['suspected', 'grace']).nullable(),
  })
  .meta({ id: 'DeathSuspectedUser' });

export const deathCaseSignal = z.object({
  source: z.enum(SIGNAL_SOURCE_VALUES),
  createdAt: timestamp,
  reporterUserId: userId.nullable(),
  reporterLastName: z.string().nullable(),
  reporterFirstName: z.string().nullable(),
  note: z.string().nullable(),
  documentImageName: z.string().nullable(),
});

export const deathCase = z
  .object({
    userId,
    lastName: z.string(),
    firstName: z.string(),
    memorialPageId: z.string().nullable(),
    state: z.enum(DEATH_STATE_VALUES),
    rule: z.enum(CONFIRMATION_RULE_VALUES),
    confirmationsNeeded: z.int(),
    suspectedAt: timestamp.nullable(),
    graceEndsAt: timestamp.nullable(),
    releasedAt: timestamp.nullable(),
    dateOfDeath: calendarDate.nullable(),
    signals: z.array(deathCaseSignal),
    confirmations: z.array(
      z.object({
        administratorUserId: userId,
        lastName: z.string(),
        firstName: z.string(),
        relationship,
        dateOfDeath: calendarDate,
        createdAt: timestamp,
      }),
    ),
    /**
     * While no case is open (`alive`): the last case the member cancelled (their sign-in, the
     * cancel call, or restoring their account after a release), with its signals (and
     * `confirmations` keeps its reports), so the administrator keeps seeing what she reported.
     */
    lastCancelled: z
      .object({
        suspectedAt: timestamp,
        cancelledAt: timestamp,
        cancelledBy: z.enum(['sign_in', 'cancel', 'restored']),
        signals: z.array(deathCaseSignal),
        /** Mails about the death that had not gone yet and were withdrawn by the cancellation or restoration. */
        mailsWithdrawn: z.int(),
      })
      .nullable(),
    /** The caller is an administrator who may still confirm. */
    canConfirm: z.boolean(),
  })
  .meta({ id: 'DeathCase' });

export const signRequest = z.object({
  signTag: z.string(),
  signContent: z.string(),
  expiresAt: timestamp,
});

export const deathSettings = z
  .object({
    rule: z.enum(CONFIRMATION_RULE_VALUES),
    administrators: z.array(
      z.object({
        userId,
        lastName: z.string(),
        firstName: z.string(),
        certificated: z.boolean(),
        /** Null once the connection with the administrator has ended. */
        relationship: relationship.nullable(),
        acceptedAt: timestamp.nullable(),
      }),
    ),
    checkInPeriodDays: z.int().nullable(),
    gracePeriodDays: z.int(),
    /** What the release does with the page, the account and the archive. */
    afterDeath: z.object({
      page: z.enum(PAGE_AFTER_DEATH_VALUES),
      account: z.enum(ACCOUNT_AFTER_DEATH_VALUES),
      deleteAfterDays: z.int().nullable(),
      archiveRecipientUserId: userId.nullable(),
    }),
  })
  .meta({ id: 'DeathSettings' });

export const administeredUser = z.object({
  userId,
  lastName: z.string(),
  firstName: z.string(),
  memorialPageId: z.string().nullable(),
  state: z.enum(DEATH_STATE_VALUES),
  acceptedAt: timestamp.nullable(),
});

export const auditEntry = z.object({
  id: z.string(),
  action: z.string(),
  createdAt: timestamp,
  actorUserId: userId.nullable(),
  actorLastName: z.string().nullable(),
  actorFirstName: z.string().nullable(),
  source: z.enum(SIGNAL_SOURCE_VALUES).nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});

export const integrationLink = z.object({
  clientId: z.string(),
  fposUserId: z.string(),
  createdAt: timestamp,
});

/**
 * What restoring an account answers: when, and what could not be taken back (delivered before
 * the restoration), so the member knows who received what.
 */
export const accountRestoration = z
  .object({
    restoredAt: timestamp,
    releasedAt: timestamp,
    /** Death-triggered letters that were waiting for their time and now wait again. */
    lettersStopped: z.int(),
    delivered: z.object({
      letters: z.array(
        z.object({ title: z.string(), deliveredAt: timestamp, recipients: z.array(z.string()) }),
      ),
      /** Ending-note sections "after my death", and the readers who could open them. */
      endingNoteSections: z.array(z.object({ section: z.string(), readers: z.array(z.string()) })),
      /** The people told of the death (its notification), family name first. */
      notified: z.array(z.string()),
      /** The administrator who downloaded the member's archive, and when (it stays theirs). */
      archive: z.object({ recipient: z.string(), downloadedAt: timestamp }).nullable(),
    }),
    /** What the restoration undid of the member's choices for after their death. */
    undone: z.object({
      /** The page's mourning view ended, or the hidden page shows again. */
      page: z.boolean(),
      /** The account's deletion, waiting for its day, will not happen. */
      accountDeletionCancelled: z.boolean(),
      /** The archive nobody had downloaded yet was withdrawn. */
      archiveWithdrawn: z.boolean(),
    }),
  })
  .meta({ id: 'AccountRestoration' });
export type AccountRestoration = z.infer<typeof accountRestoration>;

/**
 * What a restoration link needs before it restores: the member's password, or a new sign-in
 * with one of their providers (then `proven` until the proof's half hour is over).
 */
export const restorationLinkState = z
  .object({
    releasedAt: timestamp,
    hasPassword: z.boolean(),
    /** The providers the member signs in with (`line`, …). */
    providers: z.array(z.string()),
    proven: z.boolean(),
  })
  .meta({ id: 'RestorationLinkState' });
export type RestorationLinkState = z.infer<typeof restorationLinkState>;

const memberParams = z.object({ user_id: z.uuid({ error: 'user_id_invalid' }) });
const clientParams = z.object({ client_id: z.string().min(1).max(100) });
const tokenParams = z.object({ token: z.string().min(20).max(100) });

const EXAMPLE_USER = '0b9f3c1e-5d2a-4c77-9a51-3f0e8d2b6a14';

export const deathDetectionEndpoints = named({
  readDeathSettings: endpoint({
    method: 'GET',
    path: '/v1/fpos/death_settings',
    summary: "The member's administrators, their confirmation rule and check-in period",
    tag: TAG,
    caller: 'member',
    responses: { 200: deathSettings },
  }),
  saveDeathSettings: endpoint({
    method: 'PUT',
    path: '/v1/fpos/death_settings',
    summary: 'Names administrators and the rule (fresh proof when either changes)',
    tag: TAG,
    caller: 'member',
    body: deathSettingsSchema.extend(currentPasswordField).meta({
      examples: [
        {
          rule: 'any_one',
          administrator_user_ids: [EXAMPLE_USER],
          check_in_period_days: 180,
          current_password: '••••••••',
        },
      ],
    }),
    responses: { 200: deathSettings },
    freshProof: true,
  }),
  listAdministeredUsers: endpoint({
    method: 'GET',
    path: '/v1/fpos/administered_users',
    summary: 'The members who named the caller as an administrator',
    tag: TAG,
    caller: 'member',
    responses: { 200: z.object({ items: z.array(administeredUser) }) },
  }),
  readDeathSuspectedUser: endpoint({
    method: 'GET',
    path: '/v1/fpos/death_suspected_user',
    summary: "The header's read: the caller's own open case, else one they administer",
    tag: TAG,
    caller: 'member',
    responses: { 200: deathSuspectedUser },
  }),
  readAdministeredUserWithSuspectedDeath: endpoint({
    method: 'GET',
    path: '/v1/fpos/administered_user_with_suspected_death',
    summary: 'A member awaiting the caller’s confirmation, or null',
    tag: TAG,
    caller: 'member',
    responses: { 200: z.object({ userId: userId.nullable() }) },
  }),
  cancelSuspicion: endpoint({
    method: 'POST',
    path: '/v1/fpos/cancel_death_suspected_at',
    summary: 'The member says they are alive: their own open case ends',
    tag: TAG,
    caller: 'member',
    body: cancelSuspicionSchema.meta({ examples: [{ death_suspected_user_id: EXAMPLE_USER }] }),
    responses: {
      // How many mails about the death were not sent yet and are now withdrawn.
      200: z.object({ state: z.literal('alive'), mailsWithdrawn: z.int() }),
      404: errorBody,
    },
  }),
  acceptAdministration: endpoint({
    method: 'POST',
    path: '/v1/fpos/administered_users/:user_id/accept',
    summary: 'The administrator accepts being named',
    tag: TAG,
    caller: 'member',
    params: memberParams,
    responses: { 200: z.object({ acceptedAt: timestamp }), 404: errorBody },
  }),
  reportDeathSuspected: endpoint({
    method: 'POST',
    path: '/v1/fpos/report_death_suspected',
    summary: 'An administrator reports a suspected death, with an optional document image',
    tag: TAG,
    caller: 'member',
    body: administratorReportSchema.meta({
      examples: [{ user_id: EXAMPLE_USER, note: 'The hospital called.' }],
    }),
    responses: { 201: deathCase, 404: errorBody, 409: errorBody },
    rateLimited: true,
  }),
  readDeathCase: endpoint({
    method: 'GET',
    path: '/v1/fpos/death_case/:user_id',
    summary: 'The case as its administrators see it',
    tag: TAG,
    caller: 'member',
    params: memberParams,
    responses: { 200: deathCase, 404: errorBody },
  }),
  readDeathAuditLog: endpoint({
    method: 'GET',
    path: '/v1/fpos/death_audit_log/:user_id',
    summary: 'What happened in the member’s death detection, for them and their administrators',
    tag: TAG,
    caller: 'member',
    params: memberParams,
    responses: { 200: z.object({ items: z.array(auditEntry) }), 404: errorBody },
  }),
  requestConfirmationSign: endpoint({
    method: 'POST',
    path: '/v1/fpos/death_confirmation/sign_request',
    summary: 'The text an administrator signs with their certificate to confirm a death',
    tag: TAG,
    caller: 'member',
    body: signRequestSchema.meta({
      examples: [
        {
          death_suspected_user_id: EXAMPLE_USER,
          date_of_death: '2026-11-20',
          relationship: 'family',
        },
      ],
    }),
    responses: { 201: signRequest, 403: errorBody, 404: errorBody, 409: errorBody },
  }),
  confirmDeath: endpoint({
    method: 'POST',
    path: '/v1/fpos/death_confirmation',
    summary: 'An administrator confirms the death with the signed text',
    tag: TAG,
    caller: 'member',
    body: deathConfirmationSchema.meta({
      examples: [
        {
          death_suspected_user_id: EXAMPLE_USER,
          date_of_death: '2026-11-20',
          relationship: 'family',
          sign_tag: '5f1c…',
          sign_content: 'shinobu death confirmation…',
          signature: 'MEUCIQ…',
        },
      ],
    }),
    responses: { 201: deathCase, 403: errorBody, 404: errorBody, 409: errorBody },
    rateLimited: true,
  }),
  linkIntegration: endpoint({
    method: 'POST',
    path: '/v1/fpos/verify_my_auth_access_token',
    summary:
      "The member lets an integration know them by its own id (the body carries the member's token and the integration's link proof)",
    tag: TAG,
    caller: 'public',
    body: integrationLinkSchema.meta({
      examples: [
        {
          client_id: 'fpos-demo',
          fpos_user_id: 'u-42',
          access_token: 'eyJhbGciOi…',
          expires: 1795000000,
          signature: 'eaa167acf87aacbcff3280659bbb3573a9325a85c6979c79d7917d946bf9fd4c',
        },
      ],
    }),
    responses: {
      200: z.object({
        userId,
        clientId: z.string(),
        fposUserId: z.string(),
        linked: z.boolean(),
      }),
      401: errorBody,
      403: errorBody,
      404: errorBody,
      409: errorBody,
    },
  }),
  listIntegrationLinks: endpoint({
    method: 'GET',
    path: '/v1/fpos/integration_links',
    summary: 'The integrations the member is linked to',
    tag: TAG,
    caller: 'member',
    responses: { 200: z.object({ items: z.array(integrationLink) }) },
  }),
  unlinkIntegration: endpoint({
    method: 'DELETE',
    path: '/v1/fpos/integration_links/:client_id',
    summary: 'Ends one integration’s link',
    tag: TAG,
    caller: 'member',
    params: clientParams,
    responses: { 204: noBody, 404: errorBody },
  }),
  integrationReport: endpoint({
    method: 'POST',
    path: '/v1/fpos/integration/report_death_suspected',
    summary: 'An integration (client credentials in Authorization) reports a suspected death',
    tag: TAG,
    caller: 'public',
    body: integrationReportSchema.meta({ examples: [{ fpos_user_id: 'u-42', note: '' }] }),
    responses: { 202: z.object({ accepted: z.literal(true) }), 401: errorBody, 404: errorBody },
    rateLimited: true,
  }),
  checkInPage: endpoint({
    method: 'GET',
    path: '/v1/fpos/check_in/:token',
    summary: "A check-in mail's link: a page with one button (mail scanners answer nothing)",
    tag: TAG,
    caller: 'public',
    params: tokenParams,
    responses: { 200: fileBody('An HTML page', ['text/html']) },
  }),
  answerCheckIn: endpoint({
    method: 'POST',
    path: '/v1/fpos/check_in/:token',
    summary: 'The member answers the check-in (JSON with Accept: application/json, else a page)',
    tag: TAG,
    caller: 'public',
    params: tokenParams,
    responses: {
      200: fileBody('{"answered": true} as JSON, or an HTML page', [
        'application/json',
        'text/html',
      ]),
      404: fileBody('An error as JSON, or an HTML page saying the link is closed', [
        'application/json',
        'text/html',
      ]),
    },
  }),
  restoreAccount: endpoint({
    method: 'POST',
    path: '/v1/account_restoration',
    summary:
      'A member whose death was confirmed by mistake restores the account (mailed link and password)',
    tag: TAG,
    caller: 'public',
    body: accountRestorationSchema.meta({
      examples: [{ token: 'c1f0e8d2b6a14…', password: '••••••••' }],
    }),
    responses: { 200: accountRestoration, 400: errorBody, 409: errorBody },
    rateLimited: true,
  }),
  restorationLink: endpoint({
    method: 'POST',
    path: '/v1/account_restoration/link',
    summary:
      'What a restoration link needs (password or a provider sign-in), or that it is used or expired',
    tag: TAG,
    caller: 'public',
    body: restorationLinkSchema.meta({ examples: [{ token: 'c1f0e8d2b6a14…' }] }),
    responses: { 200: restorationLinkState, 400: errorBody },
    rateLimited: true,
  }),
  proveRestoration: endpoint({
    method: 'POST',
    path: '/v1/account_restoration/proof',
    summary:
      "The member proves a restoration link by signing in again with their provider (the assertion of /api/auth/restore/{provider}'s round trip, with its binding cookie); valid 30 minutes",
    tag: TAG,
    caller: 'public',
    body: restorationProofSchema.meta({
      examples: [{ token: 'c1f0e8d2b6a14…', assertion: 'eyJhbGciOiJIUzI1NiJ9…' }],
    }),
    responses: { 200: restorationLinkState, 400: errorBody, 401: errorBody, 403: errorBody },
    rateLimited: true,
  }),
  identityStatus: endpoint({
    method: 'GET',
    path: '/v1/identity_verification/status',
    summary: "The member's identity verification",
    tag: IDENTITY_TAG,
    caller: 'member',
    responses: { 200: identityStatus },
  }),
  identityChallenge: endpoint({
    method: 'POST',
    path: '/v1/identity_verification/challenge',
    summary: 'A challenge to sign with the certificate being registered',
    tag: IDENTITY_TAG,
    caller: 'member',
    responses: { 201: registrationChallenge },
  }),
  registerCertificate: endpoint({
    method: 'POST',
    path: '/v1/identity_verification/certificate',
    summary: 'Registers the certificate that signed the challenge',
    tag: IDENTITY_TAG,
    caller: 'member',
    body: certificateRegistrationSchema.meta({
      examples: [
        {
          challenge_id: '9d2e…',
          certificate_pem: '-----BEGIN CERTIFICATE-----…',
          signature: 'MEUCIQ…',
        },
      ],
    }),
    responses: { 201: identityStatus, 409: errorBody },
  }),
  isCertificated: endpoint({
    method: 'GET',
    path: '/v1/identity_verification/certificated/:user_id',
    summary: 'Whether a connection has a verified identity',
    tag: IDENTITY_TAG,
    caller: 'member',
    params: memberParams,
    responses: { 200: z.object({ userId, certificated: z.boolean() }), 404: errorBody },
  }),
  registerDeviceToken: endpoint({
    method: 'POST',
    path: '/v1/device_tokens',
    summary: "Registers the app's push token",
    tag: IDENTITY_TAG,
    caller: 'member',
    body: deviceTokenSchema.meta({ examples: [{ token: 'fcm-token…', platform: 'android' }] }),
    responses: { 204: noBody },
  }),
  deleteDeviceToken: endpoint({
    method: 'DELETE',
    path: '/v1/device_tokens',
    summary: "Forgets the app's push token",
    tag: IDENTITY_TAG,
    caller: 'member',
    body: deviceTokenDeleteSchema.meta({ examples: [{ token: 'fcm-token…' }] }),
    responses: { 204: noBody },
  }),
});
