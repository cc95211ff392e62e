/**
 * Session changes between tabs of the same browser (the session is refetched
 * when another tab changes it): a BroadcastChannel where there is one, else the `storage` event of a
 * localStorage key (older web views). Messages carry no session data, only "look again".
 */
const CHANNEL = 'shinobu-session';
const STORAGE_KEY = 'shinobu-session-changed';
/**
 * This tab's mark on what it announces: a channel delivers to every other channel object of
 * its name, this tab's own watcher included, which must not refetch for its own change.
 */
const TAB_ID = Math.random().toString(36).slice(2);

/** Tells the other tabs that this tab changed the session. */
export function announceSessionChange(): void {
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage({ from: TAB_ID });
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
    channel.onmessage = (event: MessageEvent<{ from?: string } | null>) => {
      if (event.data?.from !== TAB_ID) onChange();
    };
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
