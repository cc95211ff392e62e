import type { z } from 'zod';
import {
  deathDetectionEndpoints as death,
  type accountRestoration,
  type administeredUser,
  type auditEntry,
  type deathCase,
  type deathCaseSignal,
  type deathSettings,
  type deathSuspectedUser,
  type identityStatus,
  type integrationLink,
  type restorationLinkState,
  type signRequest,
} from '../../../contract/deathDetection';
import type { CallOf } from '../../../contract/endpoint';
import { callEndpoint } from '../http/callEndpoint';

/**
 * The death-detection, identity-verification and device-token calls (docs/death-detection.md);
 * the wire's shapes are the contract's.
 */

export type IdentityStatus = z.infer<typeof identityStatus>;
export type AuthStatus = IdentityStatus['authStatus'];
export type DeathSuspectedUserAnswer = z.infer<typeof deathSuspectedUser>;
export type DeathCase = z.infer<typeof deathCase>;
export type DeathState = DeathCase['state'];
export type DeathCaseSignal = z.infer<typeof deathCaseSignal>;
export type SignRequest = z.infer<typeof signRequest>;
export type DeathSettings = z.infer<typeof deathSettings>;
export type AdministeredUser = z.infer<typeof administeredUser>;
export type AuditEntry = z.infer<typeof auditEntry>;
export type IntegrationLink = z.infer<typeof integrationLink>;
export type AccountRestoration = z.infer<typeof accountRestoration>;
export type RestorationLinkState = z.infer<typeof restorationLinkState>;

export type DeathConfirmationFields = CallOf<typeof death.requestConfirmationSign>['body'];

/**
 * A change of the member's settings. `currentPassword` is asked again before their
 * administrators or rule change; a member without one (social login) is let through by a
 * recent sign-in instead.
 */
export type DeathSettingsChange = CallOf<typeof death.saveDeathSettings>['body'];

export const deathKeys = {
  settings: ['death', 'settings'] as const,
  administered: ['death', 'administered'] as const,
  deathCase: (userId: string) => ['death', 'case', userId] as const,
  audit: (userId: string) => ['death', 'audit', userId] as const,
  integrationLinks: ['death', 'integration-links'] as const,
};

export const fetchDeathSuspectedUser = () => callEndpoint(death.readDeathSuspectedUser, {});

/** The member cancels their own case: answers how many unsent mails about it were withdrawn. */
export const cancelDeathSuspicion = (deathSuspectedUserId: string) =>
  callEndpoint(death.cancelSuspicion, { body: { deathSuspectedUserId } });

/**
 * POST /v1/account_restoration: the mailed link's token and the password, or no password once
 * a provider sign-in proved the link; no session exists.
 */
export const restoreAccount = (token: string, password?: string) =>
  callEndpoint(
    death.restoreAccount,
    { body: password === undefined ? { token } : { token, password } },
    { authenticate: false },
  );

/** POST /v1/account_restoration/link: what the link needs, or its refusal (used, expired). */
export const fetchRestorationLink = (token: string) =>
  callEndpoint(death.restorationLink, { body: { token } }, { authenticate: false });

/** POST /v1/account_restoration/proof: the assertion the provider's round trip brought back. */
export const proveRestoration = (token: string, assertion: string) =>
  callEndpoint(death.proveRestoration, { body: { token, assertion } }, { authenticate: false });

/** The provider round trip that proves a restoration link (it signs nobody in). */
export const restoreWithProviderUrl = (provider: string, token: string) =>
  `/api/auth/restore/${encodeURIComponent(provider)}?${new URLSearchParams({ token })}`;

export const fetchIdentityStatus = () => callEndpoint(death.identityStatus, {});

export const createIdentityChallenge = () => callEndpoint(death.identityChallenge, {});

export const registerCertificate = (
  registration: CallOf<typeof death.registerCertificate>['body'],
) => callEndpoint(death.registerCertificate, { body: registration });

export const requestDeathConfirmationSign = (fields: DeathConfirmationFields) =>
  callEndpoint(death.requestConfirmationSign, { body: fields });

export const confirmDeath = (fields: CallOf<typeof death.confirmDeath>['body']) =>
  callEndpoint(death.confirmDeath, { body: fields });

export async function registerDeviceToken(token: string, platform: 'ios' | 'android') {
  await callEndpoint(death.registerDeviceToken, { body: { token, platform } });
}

export async function deleteDeviceToken(token: string) {
  await callEndpoint(death.deleteDeviceToken, { body: { token } });
}

export const fetchDeathSettings = () => callEndpoint(death.readDeathSettings, {});

export const saveDeathSettings = (change: DeathSettingsChange) =>
  callEndpoint(death.saveDeathSettings, { body: change });

export async function fetchAdministeredUsers(): Promise<AdministeredUser[]> {
  return (await callEndpoint(death.listAdministeredUsers, {})).items;
}

export async function acceptAdministration(userId: string): Promise<void> {
  await callEndpoint(death.acceptAdministration, { params: { userId } });
}

/** The header's administrator read: a member still awaiting the caller's confirmation. */
export async function fetchAdministeredUserWithSuspectedDeath(): Promise<string | null> {
  const { userId } = await callEndpoint(death.readAdministeredUserWithSuspectedDeath, {});
  return userId ?? null;
}

export const fetchDeathCase = (userId: string) =>
  callEndpoint(death.readDeathCase, { params: { userId } });

export async function fetchDeathAuditLog(userId: string): Promise<AuditEntry[]> {
  return (await callEndpoint(death.readDeathAuditLog, { params: { userId } })).items;
}

export const reportDeathSuspected = (report: CallOf<typeof death.reportDeathSuspected>['body']) =>
  callEndpoint(death.reportDeathSuspected, { body: report });

export async function fetchIntegrationLinks(): Promise<IntegrationLink[]> {
  return (await callEndpoint(death.listIntegrationLinks, {})).items;
}

/**
 * The member consents to be known by an integration as `fposUserId`: the call carries
 * the member's own access token in its body.
 */
export async function linkIntegration(link: CallOf<typeof death.linkIntegration>['body']) {
  await callEndpoint(death.linkIntegration, { body: link });
}

export async function unlinkIntegration(clientId: string): Promise<void> {
  await callEndpoint(death.unlinkIntegration, { params: { clientId } });
}
