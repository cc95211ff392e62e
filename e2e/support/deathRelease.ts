import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext } from '@playwright/test';
import {
  developmentCaPaths,
  issueCertificate,
  newEcKeyPair,
} from '../../server/x509/certificateIssuer';
import { bearer } from './deathCases';
import { workerServer } from './fixtures';

/**
 * An administrator's identity verification and death confirmation through the real API, done
 * as the mobile app does them (a key pair, a certificate from the development CA the e2e
 * server trusts, real signatures): for specs whose journey starts after the confirmation.
 */
export async function confirmDeathThroughTheApi(
  api: APIRequestContext,
  administrator: { accessToken: string; email: string },
  memberId: string,
): Promise<void> {
  const headers = bearer(administrator.accessToken);
  const keys = newEcKeyPair();
  const signText = (text: string) =>
    sign('sha256', Buffer.from(text, 'utf8'), keys.privateKey).toString('base64');
  const files = developmentCaPaths(workerServer().dataDir);
  const challenge = await api.post('/v1/identity_verification/challenge', { headers });
  expect(challenge.status(), await challenge.text()).toBe(201);
  const { challengeId, challenge: text } = (await challenge.json()) as {
    challengeId: string;
    challenge: string;
  };
  const now = Date.now();
  const certificatePem = issueCertificate({
    subjectName: administrator.email,
    subjectPublicKey: keys.publicKey,
    issuer: {
      name: 'Shinobu development identity CA',
      privateKey: createPrivateKey(readFileSync(files.privateKey, 'utf8')),
    },
    // Valid across the test clock moving forward by days.
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 400 * 24 * 3600_000),
    isAuthority: false,
    email: administrator.email,
  });
  const registered = await api.post('/v1/identity_verification/certificate', {
    headers,
    data: { challenge_id: challengeId, certificate_pem: certificatePem, signature: signText(text) },
  });
  expect(registered.status(), await registered.text()).toBe(201);

  const facts = {
    death_suspected_user_id: memberId,
    date_of_death: new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(
      new Date(now - 24 * 3600_000),
    ),
    relationship: 'family',
  };
  const request = await api.post('/v1/fpos/death_confirmation/sign_request', {
    headers,
    data: facts,
  });
  expect(request.status(), await request.text()).toBe(201);
  const { signTag, signContent } = (await request.json()) as {
    signTag: string;
    signContent: string;
  };
  const confirmed = await api.post('/v1/fpos/death_confirmation', {
    headers,
    data: {
      ...facts,
      sign_tag: signTag,
      sign_content: signContent,
      signature: signText(signContent),
    },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(201);
}
