/**
 * Session changes between tabs of the same browser (spec §4: refetched "on change from
 * another tab"): a BroadcastChannel where there is one, else the `storage` event of a
 * localStorage key (older web views). Messages carry no session data, only "look again".
 */
const CHANNEL = 'shinobu-session';
const STORAGE_KEY = 'shinobu-session-changed';

/** Tells the other tabs that this tab changed the session. */
export function announceSessionChange(): void {
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage('changed');
    channel.close();
    return;
  }
  localStorage.setItem(STORAGE_KEY, String(Date.now()));
}

/** Calls `onChange` when another tab changed the session or this tab comes back into view. */
export function watchSessionChanges(onChange: () => void): () => void {
  const onVisible = () => {
    if (document.visibilityState === 'visible') onChange();
  };
  document.addEventListener('visibilitychange', onVisible);
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = () => onChange();
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      channel.close();
    };
  }
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    document.removeEventListener('visibilitychange', onVisible);
    window.removeEventListener('storage', onStorage);
  };
}
