import { createBridge, BridgeError, type Bridge } from './bridge';
import type { BridgeCalls } from './protocol';

export { BridgeError, type Bridge } from './bridge';
export type { DeviceStatus } from './protocol';

let sequence = 0;

/** The app's one bridge, on the page's own window. */
export const bridge: Bridge = createBridge({
  window,
  document,
  createId: () =>
    typeof crypto.randomUUID === 'function'
      ? crypto.randomUUID()
      : `${Date.now().toString(36)}-${(sequence += 1)}`,
});

/** True inside the app's web view: app-only actions are offered, not the web alternative. */
export function isAppWebView(): boolean {
  return bridge.available();
}

/**
 * Base sign with an optional failure callback (spec §8): the callback runs with the
 * BridgeError when the app cannot sign (absent, refused, cancelled, timed out); the promise
 * then resolves with null, so a caller without a callback simply gets no signature.
 */
export async function startBaseSign(
  request: BridgeCalls['startBaseSign']['payload'],
  onFailure?: (error: BridgeError) => void,
  on: Bridge = bridge,
): Promise<BridgeCalls['startBaseSign']['result'] | null> {
  try {
    return await on.call('startBaseSign', request);
  } catch (error) {
    onFailure?.(error instanceof BridgeError ? error : new BridgeError('startBaseSign', 'FAILED'));
    return null;
  }
}

/** Analytics events are best effort: outside the app or on failure nothing else happens. */
export function logAnalyticsEvent(
  name: string,
  params: BridgeCalls['logEvent']['payload']['params'] = {},
  on: Bridge = bridge,
): void {
  if (!on.available()) return;
  on.call('logEvent', { name, params }).catch(() => undefined);
}
