import type { DeathCaseAnswer } from '../../contract/rules/deathDetection';
import type { RelationshipValue } from '../../contract/rules/social';
import { loadHttp } from '../http/lazy';

/** The death-detection, identity-verification and device-token calls (docs/death-detection.md). */

export type AuthStatus = 'INITIAL' | 'PROGRESS' | 'ACTIVE' | 'REVOKED';

export interface IdentityStatus {
  authStatus: AuthStatus;
  certificate: { fingerprint: string; subjectEmail: string; notAfter: string } | null;
  revokedReason: 'expired' | 'revoked' | null;
}

export type DeathState = 'alive' | 'suspected' | 'grace' | 'released';

/** GET /v1/fpos/death_suspected_user: every field null when nobody is suspected. */
export interface DeathSuspectedUserAnswer {
  userId: string | null;
  memorialPageId: string | null;
  lastName: string | null;
  firstName: string | null;
  state: 'suspected' | 'grace' | null;
}

export interface DeathCase {
  userId: string;
  lastName: string;
  firstName: string;
  memorialPageId: string | null;
  state: DeathState;
  rule: 'any_one' | 'two';
  confirmationsNeeded: number;
  suspectedAt: string | null;
  graceEndsAt: string | null;
  releasedAt: string | null;
  dateOfDeath: string | null;
  confirmations: {
    administratorUserId: string;
    lastName: string;
    firstName: string;
    relationship: RelationshipValue;
    dateOfDeath: string;
    createdAt: string;
  }[];
  canConfirm: boolean;
}

export interface DeathConfirmationFields {
  deathSuspectedUserId: string;
  dateOfDeath: string;
  relationship: RelationshipValue;
}

export interface SignRequest {
  signTag: string;
  signContent: string;
  expiresAt: string;
}

export async function fetchDeathSuspectedUser(): Promise<DeathSuspectedUserAnswer> {
  const http = await loadHttp();
  return (await http.get<DeathSuspectedUserAnswer>('/v1/fpos/death_suspected_user')).data;
}

export async function cancelDeathSuspicion(deathSuspectedUserId: string): Promise<void> {
  const http = await loadHttp();
  await http.post('/v1/fpos/cancel_death_suspected_at', { deathSuspectedUserId });
}

export async function fetchIdentityStatus(): Promise<IdentityStatus> {
  const http = await loadHttp();
  return (await http.get<IdentityStatus>('/v1/identity_verification/status')).data;
}

export async function createIdentityChallenge(): Promise<{
  challengeId: string;
  challenge: string;
  mailAddress: string;
  expiresAt: string;
}> {
  const http = await loadHttp();
  return (await http.post('/v1/identity_verification/challenge')).data;
}

export async function registerCertificate(registration: {
  challengeId: string;
  certificatePem: string;
  chainPem?: string;
  signature: string;
}): Promise<IdentityStatus> {
  const http = await loadHttp();
  return (await http.post<IdentityStatus>('/v1/identity_verification/certificate', registration))
    .data;
}

export async function requestDeathConfirmationSign(
  fields: DeathConfirmationFields,
): Promise<SignRequest> {
  const http = await loadHttp();
  return (await http.post<SignRequest>('/v1/fpos/death_confirmation/sign_request', fields)).data;
}

export async function confirmDeath(
  fields: DeathConfirmationFields & { signTag: string; signContent: string; signature: string },
): Promise<DeathCase> {
  const http = await loadHttp();
  return (await http.post<DeathCase>('/v1/fpos/death_confirmation', fields)).data;
}

export async function registerDeviceToken(token: string, platform: 'ios' | 'android') {
  const http = await loadHttp();
  await http.post('/v1/device_tokens', { token, platform });
}

export async function deleteDeviceToken(token: string) {
  const http = await loadHttp();
  await http.delete('/v1/device_tokens', { data: { token } });
}

/** The member's own death settings (GET/PUT /v1/fpos/death_settings). */
export interface DeathSettings {
  rule: 'any_one' | 'two';
  administrators: {
    userId: string;
    lastName: string;
    firstName: string;
    certificated: boolean;
    relationship: RelationshipValue | null;
    acceptedAt: string | null;
  }[];
  checkInPeriodDays: number | null;
  gracePeriodDays: number;
}

export interface DeathSettingsChange {
  rule: 'any_one' | 'two';
  administratorUserIds: string[];
  checkInPeriodDays: number | null;
  /**
   * The member's password, asked again before their administrators or rule change; a member
   * without one (social login) is let through by a recent sign-in instead.
   */
  currentPassword?: string;
}

/** A member who named the caller as one of their administrators. */
export interface AdministeredUser {
  userId: string;
  lastName: string;
  firstName: string;
  memorialPageId: string | null;
  state: DeathState;
  acceptedAt: string | null;
}

export type DeathCaseSignal = DeathCaseAnswer['signals'][number];

export interface AuditEntry {
  id: string;
  action: string;
  createdAt: string;
  actorUserId: string | null;
  actorLastName: string | null;
  actorFirstName: string | null;
  source: DeathCaseSignal['source'] | null;
}

export interface IntegrationLink {
  clientId: string;
  fposUserId: string;
  createdAt: string;
}

export const deathKeys = {
  settings: ['death', 'settings'] as const,
  administered: ['death', 'administered'] as const,
  deathCase: (userId: string) => ['death', 'case', userId] as const,
  audit: (userId: string) => ['death', 'audit', userId] as const,
  integrationLinks: ['death', 'integration-links'] as const,
};

export async function fetchDeathSettings(): Promise<DeathSettings> {
  const http = await loadHttp();
  return (await http.get<DeathSettings>('/v1/fpos/death_settings')).data;
}

export async function saveDeathSettings(change: DeathSettingsChange): Promise<DeathSettings> {
  const http = await loadHttp();
  return (await http.put<DeathSettings>('/v1/fpos/death_settings', change)).data;
}

export async function fetchAdministeredUsers(): Promise<AdministeredUser[]> {
  const http = await loadHttp();
  return (await http.get<{ items: AdministeredUser[] }>('/v1/fpos/administered_users')).data.items;
}

export async function acceptAdministration(userId: string): Promise<void> {
  const http = await loadHttp();
  await http.post(`/v1/fpos/administered_users/${encodeURIComponent(userId)}/accept`);
}

/** The header's administrator read: a member still awaiting the caller's confirmation. */
export async function fetchAdministeredUserWithSuspectedDeath(): Promise<string | null> {
  const http = await loadHttp();
  const { data } = await http.get<{ userId: string | null }>(
    '/v1/fpos/administered_user_with_suspected_death',
  );
  return data.userId ?? null;
}

export async function fetchDeathCase(
  userId: string,
): Promise<DeathCase & { signals: DeathCaseSignal[] }> {
  const http = await loadHttp();
  return (await http.get(`/v1/fpos/death_case/${encodeURIComponent(userId)}`)).data;
}

export async function fetchDeathAuditLog(userId: string): Promise<AuditEntry[]> {
  const http = await loadHttp();
  return (
    await http.get<{ items: AuditEntry[] }>(
      `/v1/fpos/death_audit_log/${encodeURIComponent(userId)}`,
    )
  ).data.items;
}

export async function reportDeathSuspected(report: {
  userId: string;
  note?: string;
  documentImageName?: string;
}): Promise<DeathCase> {
  const http = await loadHttp();
  return (await http.post<DeathCase>('/v1/fpos/report_death_suspected', report)).data;
}

export async function fetchIntegrationLinks(): Promise<IntegrationLink[]> {
  const http = await loadHttp();
  return (await http.get<{ items: IntegrationLink[] }>('/v1/fpos/integration_links')).data.items;
}

/**
 * The member consents to be known by an integration as `fposUserId`: the spec's call carries
 * the member's own access token in its body.
 */
export async function linkIntegration(link: {
  clientId: string;
  fposUserId: string;
  accessToken: string;
}): Promise<void> {
  const http = await loadHttp();
  await http.post('/v1/fpos/verify_my_auth_access_token', link);
}

export async function unlinkIntegration(clientId: string): Promise<void> {
  const http = await loadHttp();
  await http.delete(`/v1/fpos/integration_links/${encodeURIComponent(clientId)}`);
}
