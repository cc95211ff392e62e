import { afterEach, describe, expect, it, vi } from 'vitest';
import { BridgeError, createBridge, type NativeHost } from '../../src/services/bridge/bridge';
import { BRIDGE_PROTOCOL, BRIDGE_VERSION } from '../../src/services/bridge/protocol';
import { cancelledInApp, saveFileInApp } from '../../src/services/bridge';

type HostWindow = Window & { ReactNativeWebView?: NativeHost };

/** The app's side, in the page: records requests; the test answers them on window or document. */
function appHost() {
  const sent: { id: string; type: string; version: number; payload: unknown }[] = [];
  (window as HostWindow).ReactNativeWebView = {
    postMessage: (message) => void sent.push(JSON.parse(message)),
  };
  const reply = (target: EventTarget, body: Record<string, unknown>) =>
    target.dispatchEvent(
      new MessageEvent('message', {
        data: JSON.stringify({ protocol: BRIDGE_PROTOCOL, version: BRIDGE_VERSION, ...body }),
      }),
    );
  return { sent, reply };
}

let ids = 0;
const newBridge = (logError = vi.fn()) => ({
  logError,
  bridge: createBridge({ window, document, createId: () => `request-${(ids += 1)}`, logError }),
});

afterEach(() => {
  delete (window as HostWindow).ReactNativeWebView;
  vi.useRealTimers();
});

describe('native bridge', () => {
  it('without the app: not available, and a call fails as UNAVAILABLE with "native error" logged', async () => {
    const { bridge, logError } = newBridge();
    expect(bridge.available()).toBe(false);
    await expect(bridge.call('checkStatus', {})).rejects.toMatchObject({ reason: 'UNAVAILABLE' });
    expect(logError).toHaveBeenCalledWith('native error', expect.any(BridgeError));
  });

  it('matches replies to requests by id, in any order, on window or document', async () => {
    const { sent, reply } = appHost();
    const { bridge } = newBridge();
    const status = bridge.call('checkStatus', {});
    const sign = bridge.call('startBaseSign', { signTag: 'tag', signContent: 'content' });
    expect(sent.map((r) => [r.type, r.version])).toEqual([
      ['checkStatus', 1],
      ['startBaseSign', 1],
    ]);
    expect(sent[1]!.payload).toEqual({ signTag: 'tag', signContent: 'content' });
    reply(document, { replyTo: sent[1]!.id, ok: true, result: { signature: 'c2ln' } });
    reply(window, {
      replyTo: sent[0]!.id,
      ok: true,
      result: { appVersion: '1.0.0', platform: 'ios', deviceStatus: 'ACTIVE' },
    });
    await expect(sign).resolves.toEqual({ signature: 'c2ln' });
    await expect(status).resolves.toMatchObject({ deviceStatus: 'ACTIVE' });
  });

  it('an app refusal, a malformed result and a missing reply each fail with their reason', async () => {
    vi.useFakeTimers();
    const { sent, reply } = appHost();
    const { bridge, logError } = newBridge();
    const cancelled = bridge.call('startBaseSign', { signTag: 't', signContent: 'c' });
    reply(window, { replyTo: sent[0]!.id, ok: false, error: { code: 'CANCELLED' } });
    await expect(cancelled).rejects.toMatchObject({ reason: 'CANCELLED' });

    const malformed = bridge.call('registerDeviceToken', {});
    reply(window, { replyTo: sent[1]!.id, ok: true, result: { token: '' } });
    await expect(malformed).rejects.toMatchObject({ reason: 'BAD_REPLY' });

    const silent = bridge.call('checkStatus', {});
    const outcome = expect(silent).rejects.toMatchObject({ reason: 'TIMEOUT' });
    await vi.advanceTimersByTimeAsync(5_000);
    await outcome;
    expect(logError).toHaveBeenCalledTimes(3);
  });

  it('hands a file to the app as base64 with its name and type, however large', async () => {
    const { sent, reply } = appHost();
    const { bridge } = newBridge();
    const bytes = Uint8Array.from({ length: 100_000 }, (_, index) => index % 256);
    const saving = saveFileInApp(
      new Blob([bytes], { type: 'application/json' }),
      'endingnote-2026-11-25.json',
      bridge,
    );
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const payload = sent[0]!.payload as { fileName: string; mimeType: string; base64: string };
    expect(sent[0]!.type).toBe('saveFile');
    expect(payload.fileName).toBe('endingnote-2026-11-25.json');
    expect(payload.mimeType).toBe('application/json');
    expect(new Uint8Array(Buffer.from(payload.base64, 'base64'))).toEqual(bytes);
    reply(window, { replyTo: sent[0]!.id, ok: false, error: { code: 'CANCELLED' } });
    const refusal = await saving.catch((error: unknown) => error);
    expect(cancelledInApp(refusal)).toBe(true);
  });
});
