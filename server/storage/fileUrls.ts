import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../lib/clock';
import { OBJECT_NAME_PATTERN, SIGNED_URL_TTL_SECONDS } from './objectStore';

export interface FileUrlOptions {
  publicUrl: string;
  secret: string;
  clock: Clock;
}

export interface SignedRequest {
  method: 'GET' | 'PUT';
  objectName: string;
  expires: number;
  signature: string;
}

/**
 * `/files/<name>` URLs signed with HMAC over the method, the name and the expiry: the embedded
 * store's GET URLs, and every store's upload URLs (uploads always pass through the server,
 * which checks the bytes before any store keeps them).
 */
export function createFileUrls(options: FileUrlOptions) {
  const sign = (method: string, objectName: string, expires: number) =>
    createHmac('sha256', `files:${options.secret}`)
      .update(`${method}\n${objectName}\n${expires}`)
      .digest('base64url');
  return {
    sign(objectName: string, method: 'GET' | 'PUT', expiresInSeconds = SIGNED_URL_TTL_SECONDS) {
      if (!OBJECT_NAME_PATTERN.test(objectName))
        throw new Error(`invalid object name ${objectName}`);
      const expires = Math.floor(options.clock.now().getTime() / 1000) + expiresInSeconds;
      const query = new URLSearchParams({
        method,
        expires: String(expires),
        signature: sign(method, objectName, expires),
      });
      return `${options.publicUrl}/files/${objectName}?${query}`;
    },
    verify({
      method,
      objectName,
      expires,
      signature,
    }: SignedRequest): 'ok' | 'expired' | 'invalid' {
      if (!OBJECT_NAME_PATTERN.test(objectName)) return 'invalid';
      const expected = Buffer.from(sign(method, objectName, expires));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
      return expires * 1000 < options.clock.now().getTime() ? 'expired' : 'ok';
    },
  };
}

export type FileUrls = ReturnType<typeof createFileUrls>;
