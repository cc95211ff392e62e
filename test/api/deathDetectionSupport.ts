import { createHmac, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { issueAccessToken } from '../../server/domain/accessTokens';
import {
  createCertificateAuthority,
  developmentCaPaths,
  issueCertificate,
  newEcKeyPair,
  type CertificateAuthority,
} from '../../server/x509/certificateIssuer';
import type { TestMember } from '../support/members';
import type { TestApp } from '../support/testApp';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The development CA the server generated into its DATA_DIR (what the e2e app host uses). */
export function developmentCa(t: TestApp): CertificateAuthority {
  const files = developmentCaPaths(t.config.dataDir);
  return {
    name: 'Shinobu development identity CA',
    certificatePem: readFileSync(files.certificate, 'utf8'),
    privateKey: createPrivateKey(readFileSync(files.privateKey, 'utf8')),
  };
}

/** A CA the server does not trust. */
export const untrustedCa = () => createCertificateAuthority('Untrusted CA', new Date());

export interface AppKeys {
  privateKey: KeyObject;
  certificatePem: string;
}

/** What the mobile app does on certificate registration: a key pair and a certificate for it. */
export function appCertificate(
  t: TestApp,
  email: string,
  options: { ca?: CertificateAuthority; validDays?: number } = {},
): AppKeys {
  const ca = options.ca ?? developmentCa(t);
  const { publicKey, privateKey } = newEcKeyPair();
  const now = t.clock.now();
  const certificatePem = issueCertificate({
    subjectName: email,
    subjectPublicKey: publicKey,
    issuer: { name: ca.name, privateKey: ca.privateKey },
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + (options.validDays ?? 365) * DAY_MS),
    isAuthority: false,
    email,
  });
  return { privateKey, certificatePem };
}

export const signText = (keys: AppKeys, text: string) =>
  sign('sha256', Buffer.from(text, 'utf8'), keys.privateKey).toString('base64');

/** A fresh access token: the tests move the clock by days, tokens live 15 minutes. */
export const tokenOf = (t: TestApp, member: TestMember) =>
  issueAccessToken(member.id, t.config.authSecret, t.clock);

/** Registers an app certificate for the member through the API (status ACTIVE). */
export async function verifyIdentity(
  t: TestApp,
  member: TestMember,
  options: { validDays?: number } = {},
): Promise<AppKeys> {
  const token = await tokenOf(t, member);
  const challenge = await t.request({
    method: 'POST',
    url: '/v1/identity_verification/challenge',
    token,
  });
  expect(challenge.statusCode, challenge.body).toBe(201);
  const keys = appCertificate(t, member.email, options);
  const registered = await t.request({
    method: 'POST',
    url: '/v1/identity_verification/certificate',
    token,
    body: {
      challenge_id: challenge.json().challengeId,
      certificate_pem: keys.certificatePem,
      signature: signText(keys, challenge.json().challenge),
    },
  });
  expect(registered.statusCode, registered.body).toBe(201);
  return keys;
}

export async function setAdministrators(
  t: TestApp,
  member: TestMember,
  administrators: TestMember[],
  rule: 'any_one' | 'two' = 'any_one',
  checkInPeriodDays: number | null = null,
  /** The member's password; a member without one proves itself by its fresh token. */
  currentPassword?: string,
) {
  const response = await t.request({
    method: 'PUT',
    url: '/v1/fpos/death_settings',
    token: await tokenOf(t, member),
    body: {
      rule,
      administrator_user_ids: administrators.map((a) => a.id),
      check_in_period_days: checkInPeriodDays,
      ...(currentPassword ? { current_password: currentPassword } : {}),
    },
  });
  expect(response.statusCode, response.body).toBe(200);
}

export async function reportSuspicion(t: TestApp, administrator: TestMember, member: TestMember) {
  return t.request({
    method: 'POST',
    url: '/v1/fpos/report_death_suspected',
    token: await tokenOf(t, administrator),
    body: { user_id: member.id },
  });
}

/** The administrator's whole confirmation: sign request, base sign in the app, confirmation. */
export async function confirmDeath(
  t: TestApp,
  administrator: TestMember,
  keys: AppKeys,
  member: TestMember,
  facts: { date_of_death?: string; relationship?: string } = {},
) {
  const token = await tokenOf(t, administrator);
  const body = {
    death_suspected_user_id: member.id,
    date_of_death: facts.date_of_death ?? '2026-11-20',
    relationship: facts.relationship ?? 'family',
  };
  const request = await t.request({
    method: 'POST',
    url: '/v1/fpos/death_confirmation/sign_request',
    token,
    body,
  });
  if (request.statusCode !== 201) return request;
  const { signTag, signContent } = request.json();
  return t.request({
    method: 'POST',
    url: '/v1/fpos/death_confirmation',
    token,
    body: {
      ...body,
      sign_tag: signTag,
      sign_content: signContent,
      signature: signText(keys, signContent),
    },
  });
}

/**
 * What an integration adds to the link it sends a member to (docs/integrations.md), computed
 * here as an integrator would: HMAC-SHA256 with its secret over the documented text.
 */
export function integrationLinkProof(
  t: TestApp,
  link: { clientId: string; fposUserId: string; secret: string; expiresInSeconds?: number },
) {
  const expires = Math.floor(t.clock.now().getTime() / 1000) + (link.expiresInSeconds ?? 600);
  const text = `shinobu-integration-link\n${link.clientId}\n${link.fposUserId}\n${expires}`;
  return { expires, signature: createHmac('sha256', link.secret).update(text).digest('hex') };
}
