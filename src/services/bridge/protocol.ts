/**
 * The message protocol between the web app and the mobile app's web view (docs/native-bridge.md).
 * Every request carries the protocol name, its version, a unique id, a type and a payload; the
 * app answers each request with one reply naming that id. This file is the one definition of
 * the shapes on both sides of `postMessage`.
 */
export const BRIDGE_PROTOCOL = 'shinobu-bridge';

/** Raised when a message shape changes incompatibly; the app refuses versions it does not know. */
export const BRIDGE_VERSION = 1;

/** Device and certificate status of the app, as the app names them. */
export type DeviceStatus = 'INITIAL' | 'PROGRESS' | 'ACTIVE' | 'REVOKED';
export const DEVICE_STATUSES: readonly DeviceStatus[] = [
  'INITIAL',
  'PROGRESS',
  'ACTIVE',
  'REVOKED',
];

/** Payload and result of each request type. */
export interface BridgeCalls {
  /** Is the app there, which version, and what is the state of its certificate. */
  checkStatus: {
    payload: Record<string, never>;
    result: { appVersion: string; platform: 'ios' | 'android'; deviceStatus: DeviceStatus };
  };
  /**
   * The app creates a key pair in its secure storage, has a certificate issued for it with
   * `mailAddress` as subjectAltName email, and signs the UTF-8 bytes of `challenge` with it
   * (base64 signature).
   */
  startCertificateRegistration: {
    payload: { mailAddress: string; challenge: string };
    result: { certificatePem: string; chainPem?: string; signature: string };
  };
  /** The app shows `signContent`, and signs its UTF-8 bytes with the member's own key. */
  startBaseSign: {
    payload: { signTag: string; signContent: string };
    result: { signature: string };
  };
  /** The app answers the push token of this device (asking the OS for permission if needed). */
  registerDeviceToken: {
    payload: Record<string, never>;
    result: { token: string; platform: 'ios' | 'android' };
  };
  /** The app forgets its push token (sign-out); it answers the token it held, if any. */
  deleteToken: {
    payload: Record<string, never>;
    result: { token: string | null };
  };
  /** An analytics event for the app's analytics SDK. */
  logEvent: {
    payload: { name: string; params: Record<string, string | number | boolean> };
    result: Record<string, never>;
  };
  /** The app prints a whole HTML document (its own print dialog; a web view cannot). */
  print: {
    payload: { title: string; html: string };
    result: Record<string, never>;
  };
  /** The app keeps a file on the device (its save or "open in" sheet); base64 bytes. */
  saveFile: {
    payload: { fileName: string; mimeType: string; base64: string };
    result: Record<string, never>;
  };
  /** The app's share sheet for a link (LINE, mail, messages…). */
  share: {
    payload: { url: string; title: string };
    result: Record<string, never>;
  };
}

export type BridgeCallType = keyof BridgeCalls;

export const BRIDGE_CALL_TYPES: readonly BridgeCallType[] = [
  'checkStatus',
  'startCertificateRegistration',
  'startBaseSign',
  'registerDeviceToken',
  'deleteToken',
  'logEvent',
  'print',
  'saveFile',
  'share',
];

export interface BridgeRequest<T extends BridgeCallType = BridgeCallType> {
  protocol: typeof BRIDGE_PROTOCOL;
  version: number;
  id: string;
  type: T;
  payload: BridgeCalls[T]['payload'];
}

/**
 * Why the app refused or failed a request. `CANCELLED`: the member stopped it in the app;
 * `UNSUPPORTED_VERSION` / `UNKNOWN_TYPE`: the app cannot serve this request; `FAILED`: anything
 * else (the message says what, for the logs only).
 */
export type BridgeErrorCode = 'CANCELLED' | 'UNSUPPORTED_VERSION' | 'UNKNOWN_TYPE' | 'FAILED';

export type BridgeReply =
  | {
      protocol: typeof BRIDGE_PROTOCOL;
      version: number;
      replyTo: string;
      ok: true;
      result: unknown;
    }
  | {
      protocol: typeof BRIDGE_PROTOCOL;
      version: number;
      replyTo: string;
      ok: false;
      error: { code: BridgeErrorCode; message?: string };
    };

/** How long the web app waits for each reply; calls the member acts on in the app wait long. */
export const BRIDGE_TIMEOUT_MS: Record<BridgeCallType, number> = {
  checkStatus: 5_000,
  startCertificateRegistration: 10 * 60_000,
  startBaseSign: 5 * 60_000,
  registerDeviceToken: 30_000,
  deleteToken: 10_000,
  logEvent: 5_000,
  print: 10 * 60_000,
  saveFile: 5 * 60_000,
  share: 10 * 60_000,
};

const ERROR_CODES: readonly BridgeErrorCode[] = [
  'CANCELLED',
  'UNSUPPORTED_VERSION',
  'UNKNOWN_TYPE',
  'FAILED',
];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A reply of this protocol read from a `message` event's data (a JSON string, or an object
 * where a host passes one), or null for any other message on the page.
 */
export function parseReply(data: unknown): BridgeReply | null {
  let value: unknown = data;
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (!isRecord(value) || value.protocol !== BRIDGE_PROTOCOL) return null;
  if (typeof value.replyTo !== 'string' || typeof value.version !== 'number') return null;
  if (value.ok === true) {
    return {
      protocol: BRIDGE_PROTOCOL,
      version: value.version,
      replyTo: value.replyTo,
      ok: true,
      result: value.result,
    };
  }
  if (value.ok === false) {
    const error = isRecord(value.error) ? value.error : {};
    const code = ERROR_CODES.find((known) => known === error.code) ?? 'FAILED';
    const message = typeof error.message === 'string' ? error.message : undefined;
    return {
      protocol: BRIDGE_PROTOCOL,
      version: value.version,
      replyTo: value.replyTo,
      ok: false,
      error: { code, message },
    };
  }
  return null;
}

/** Checks the result of a reply against the shape its request type promises. */
export function isResultOf<T extends BridgeCallType>(
  type: T,
  result: unknown,
): result is BridgeCalls[T]['result'] {
  if (!isRecord(result)) return false;
  const text = (key: string) => typeof result[key] === 'string' && result[key] !== '';
  const platform = () => result.platform === 'ios' || result.platform === 'android';
  switch (type) {
    case 'checkStatus':
      return (
        text('appVersion') &&
        platform() &&
        DEVICE_STATUSES.includes(result.deviceStatus as DeviceStatus)
      );
    case 'startCertificateRegistration':
      return (
        text('certificatePem') &&
        text('signature') &&
        (result.chainPem === undefined || text('chainPem'))
      );
    case 'startBaseSign':
      return text('signature');
    case 'registerDeviceToken':
      return text('token') && platform();
    case 'deleteToken':
      return result.token === null || text('token');
    case 'logEvent':
    case 'print':
    case 'saveFile':
    case 'share':
      return true;
  }
  return false;
}
