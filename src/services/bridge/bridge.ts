import {
  BRIDGE_PROTOCOL,
  BRIDGE_TIMEOUT_MS,
  BRIDGE_VERSION,
  isResultOf,
  parseReply,
  type BridgeCallType,
  type BridgeCalls,
  type BridgeErrorCode,
  type BridgeRequest,
} from './protocol';

/** The object React Native WebView puts on `window` inside the app. */
export interface NativeHost {
  postMessage(message: string): void;
}

/** Why a bridge call did not give a result. */
export type BridgeFailureReason = BridgeErrorCode | 'UNAVAILABLE' | 'TIMEOUT' | 'BAD_REPLY';

export class BridgeError extends Error {
  constructor(
    readonly type: BridgeCallType,
    readonly reason: BridgeFailureReason,
    detail?: string,
  ) {
    super(`native bridge ${type}: ${reason}${detail ? ` (${detail})` : ''}`);
    this.name = 'BridgeError';
  }
}

export interface BridgeEnvironment {
  /** Where the app's host object lives and replies arrive: the page's `window`. */
  window: Window & { ReactNativeWebView?: NativeHost };
  /** React Native WebView dispatches replies on `document` on Android and `window` on iOS. */
  document: Document;
  createId: () => string;
  timeoutsMs?: Partial<Record<BridgeCallType, number>>;
  /** Where "native error" is reported; the console by default. */
  logError?: (message: string, error: BridgeError) => void;
}

export interface Bridge {
  /** True inside the app's web view (its host object is present). */
  available(): boolean;
  /** Sends one request and resolves with the app's result; rejects with a BridgeError. */
  call<T extends BridgeCallType>(
    type: T,
    payload: BridgeCalls[T]['payload'],
  ): Promise<BridgeCalls[T]['result']>;
}

interface Pending {
  type: BridgeCallType;
  resolve: (result: unknown) => void;
  reject: (error: BridgeError) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The web side of the bridge: requests go out through `window.ReactNativeWebView.postMessage`
 * as JSON; replies come back as `message` events and are matched to their request by id.
 * A request without its reply in time fails with TIMEOUT; a late reply is ignored.
 */
export function createBridge(env: BridgeEnvironment): Bridge {
  const pending = new Map<string, Pending>();
  const logError =
    env.logError ?? ((message: string, error: BridgeError) => console.error(message, error));
  let listening = false;

  const onMessage = (event: Event) => {
    const reply = parseReply((event as MessageEvent).data);
    if (!reply) return;
    const waiting = pending.get(reply.replyTo);
    if (!waiting) return;
    pending.delete(reply.replyTo);
    clearTimeout(waiting.timer);
    if (!reply.ok) {
      waiting.reject(new BridgeError(waiting.type, reply.error.code, reply.error.message));
    } else if (!isResultOf(waiting.type, reply.result)) {
      waiting.reject(new BridgeError(waiting.type, 'BAD_REPLY'));
    } else {
      waiting.resolve(reply.result);
    }
  };

  const listen = () => {
    if (listening) return;
    listening = true;
    env.window.addEventListener('message', onMessage);
    env.document.addEventListener('message', onMessage);
  };

  const fail = (error: BridgeError): never => {
    logError('native error', error);
    throw error;
  };

  return {
    available: () => typeof env.window.ReactNativeWebView?.postMessage === 'function',
    call: async (type, payload) => {
      const host = env.window.ReactNativeWebView;
      if (typeof host?.postMessage !== 'function')
        return fail(new BridgeError(type, 'UNAVAILABLE'));
      listen();
      const request: BridgeRequest = {
        protocol: BRIDGE_PROTOCOL,
        version: BRIDGE_VERSION,
        id: env.createId(),
        type,
        payload,
      };
      const timeoutMs = env.timeoutsMs?.[type] ?? BRIDGE_TIMEOUT_MS[type];
      try {
        return await new Promise<BridgeCalls[typeof type]['result']>((resolve, reject) => {
          const timer = setTimeout(() => {
            pending.delete(request.id);
            reject(new BridgeError(type, 'TIMEOUT'));
          }, timeoutMs);
          pending.set(request.id, {
            type,
            resolve: resolve as (result: unknown) => void,
            reject,
            timer,
          });
          try {
            host.postMessage(JSON.stringify(request));
          } catch (error) {
            clearTimeout(timer);
            pending.delete(request.id);
            reject(new BridgeError(type, 'UNAVAILABLE', String(error)));
          }
        });
      } catch (error) {
        return fail(error as BridgeError);
      }
    },
  };
}
