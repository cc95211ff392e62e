import type { RelationshipValue } from '../../validation/social';
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
