import { useCallback, useSyncExternalStore } from 'react';
import { THEME_COOKIE } from '../../contract/pages/pageHandover';

export type ThemeChoice = 'light' | 'dark' | 'system';

export const THEME_STORAGE_KEY = 'shinobu.theme';
export function readThemeChoice(): ThemeChoice {
  const stored = globalThis.localStorage?.getItem(THEME_STORAGE_KEY);
  return stored === 'light' || stored === 'dark' || stored === 'system' ? stored : 'system';
}

/** Those who show the choice: told when this tab or another one changes it. */
const listeners = new Set<() => void>();

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY) onChange();
  };
  listeners.add(onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The chosen theme (stored locally); "system" follows the browser (ThemeRoot.tsx). A page the
 * server rendered is hydrated as the server drew it ("system": it cannot read local storage,
 * and the page's colours come from the cookie), then shows the stored choice.
 */
export function useThemeChoice(): {
  choice: ThemeChoice;
  setChoice: (choice: ThemeChoice) => void;
} {
  const choice = useSyncExternalStore(subscribe, readThemeChoice, () => 'system' as const);
  const setChoice = useCallback((next: ThemeChoice) => {
    localStorage.setItem(THEME_STORAGE_KEY, next);
    document.cookie = `${THEME_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
    for (const listener of listeners) listener();
  }, []);
  return { choice, setChoice };
}
