import { createPrivateKey, randomUUID, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import {
  developmentCaPaths,
  issueCertificate,
  newEcKeyPair,
} from '../../server/x509/certificateIssuer';
import { workerServer } from './fixtures';

/**
 * The mobile app, simulated: a test host that speaks the bridge protocol of
 * docs/native-bridge.md. In the page it is `window.ReactNativeWebView`; each request is
 * answered here, in the test process, with real keys, a real certificate issued by the
 * development CA the e2e server trusts (read from its DATA_DIR) and real signatures.
 */
export interface NativeHostControl {
  /** The next replies of these types fail (the member cancels in the app). */
  failNext: Set<string>;
  /** The next replies of these types fail otherwise (the app could not do it). */
  breakNext: Set<string>;
  requests: { type: string; payload: Record<string, unknown> }[];
}

function developmentCa(): { certificatePem: string; privateKey: KeyObject; name: string } {
  const files = developmentCaPaths(workerServer().dataDir);
  const certificatePem = readFileSync(files.certificate, 'utf8');
  return {
    certificatePem,
    privateKey: createPrivateKey(readFileSync(files.privateKey, 'utf8')),
    name: 'Shinobu development identity CA',
  };
}

export async function installNativeHost(page: Page): Promise<NativeHostControl> {
  const control: NativeHostControl = { failNext: new Set(), breakNext: new Set(), requests: [] };
  const keys = newEcKeyPair();
  const deviceToken = `e2e-device-${randomUUID()}`;
  const signText = (text: string) =>
    sign('sha256', Buffer.from(text, 'utf8'), keys.privateKey).toString('base64');

  const answer = (request: {
    type: string;
    payload: Record<string, unknown>;
  }): { ok: true; result: unknown } | { ok: false; error: { code: string } } => {
    control.requests.push(request);
    if (control.failNext.delete(request.type)) return { ok: false, error: { code: 'CANCELLED' } };
    if (control.breakNext.delete(request.type)) return { ok: false, error: { code: 'FAILED' } };
    switch (request.type) {
      case 'checkStatus':
        return {
          ok: true,
          result: { appVersion: '1.0.0-e2e', platform: 'android', deviceStatus: 'ACTIVE' },
        };
      case 'startCertificateRegistration': {
        const ca = developmentCa();
        const now = Date.now();
        const certificatePem = issueCertificate({
          subjectName: String(request.payload.mailAddress),
          subjectPublicKey: keys.publicKey,
          issuer: { name: ca.name, privateKey: ca.privateKey },
          // Valid across the test clock moving forward by days.
          notBefore: new Date(now - 60_000),
          notAfter: new Date(now + 400 * 24 * 3600_000),
          isAuthority: false,
          email: String(request.payload.mailAddress),
        });
        return {
          ok: true,
          result: { certificatePem, signature: signText(String(request.payload.challenge)) },
        };
      }
      case 'startBaseSign':
        return { ok: true, result: { signature: signText(String(request.payload.signContent)) } };
      case 'registerDeviceToken':
        return { ok: true, result: { token: deviceToken, platform: 'android' } };
      case 'deleteToken':
        return { ok: true, result: { token: deviceToken } };
      // The app prints, keeps the file or opens its share sheet; the test reads the request.
      case 'logEvent':
      case 'print':
      case 'saveFile':
      case 'share':
        return { ok: true, result: {} };
      default:
        return { ok: false, error: { code: 'UNKNOWN_TYPE' } };
    }
  };

  await page.exposeFunction('shinobuTestHostAnswer', (message: string) => {
    const request = JSON.parse(message) as {
      protocol: string;
      version: number;
      id: string;
      type: string;
      payload: Record<string, unknown>;
    };
    return JSON.stringify({
      protocol: request.protocol,
      version: request.version,
      replyTo: request.id,
      ...answer(request),
    });
  });
  await page.addInitScript(() => {
    const host = window as unknown as {
      shinobuTestHostAnswer: (message: string) => Promise<string>;
      ReactNativeWebView: { postMessage: (message: string) => void };
    };
    host.ReactNativeWebView = {
      postMessage: (message) => {
        void host
          .shinobuTestHostAnswer(message)
          .then((reply) => window.dispatchEvent(new MessageEvent('message', { data: reply })));
      },
    };
  });
  return control;
}
