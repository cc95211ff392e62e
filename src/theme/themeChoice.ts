import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';

export type ThemeChoice = 'light' | 'dark' | 'system';

export const THEME_STORAGE_KEY = 'shinobu.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

export function readThemeChoice(): ThemeChoice {
  const stored = globalThis.localStorage?.getItem(THEME_STORAGE_KEY);
  return stored === 'light' || stored === 'dark' || stored === 'system' ? stored : 'system';
}

let darkQuery: MediaQueryList | undefined;
/**
 * One query list for the page: React reads the snapshot on every render of the theme, and
 * each `matchMedia` call made and evaluated a new list, a cost that showed in start-up's
 * profile (docs/app-shell.md, "Start-up work").
 */
const systemDarkQuery = () => (darkQuery ??= window.matchMedia(DARK_QUERY));

export const systemPrefersDark = () => systemDarkQuery().matches;

function subscribeToSystemScheme(onChange: () => void): () => void {
  const query = systemDarkQuery();
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The chosen theme (stored locally) and the mode it resolves to; "system" follows the browser. */
export function useThemeChoice(): {
  choice: ThemeChoice;
  mode: 'light' | 'dark';
  setChoice: (choice: ThemeChoice) => void;
} {
  const [choice, setChoiceState] = useState<ThemeChoice>(readThemeChoice);
  const systemDark = useSyncExternalStore(subscribeToSystemScheme, systemPrefersDark, () => false);
  const setChoice = useCallback((next: ThemeChoice) => {
    localStorage.setItem(THEME_STORAGE_KEY, next);
    setChoiceState(next);
  }, []);
  // Another tab changing the theme changes this one too.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === THEME_STORAGE_KEY) setChoiceState(readThemeChoice());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  const mode = choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;
  return { choice, mode, setChoice };
}
