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
 * Base sign with an optional failure callback: the callback runs with the
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

/** The bytes of `file` in base64, read as a data URL (which already is base64). */
function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** The app keeps `file` on the device under `fileName` (the web view cannot download). */
export async function saveFileInApp(
  file: Blob,
  fileName: string,
  on: Bridge = bridge,
): Promise<void> {
  await on.call('saveFile', {
    fileName,
    mimeType: file.type || 'application/octet-stream',
    base64: await base64Of(file),
  });
}

/** The member stopped it in the app: nothing went wrong, so nothing is said. */
export function cancelledInApp(error: unknown): boolean {
  return error instanceof BridgeError && error.reason === 'CANCELLED';
}
