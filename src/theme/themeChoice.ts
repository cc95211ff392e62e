import { useCallback, useEffect, useState } from 'react';

export type ThemeChoice = 'light' | 'dark' | 'system';

export const THEME_STORAGE_KEY = 'shinobu.theme';
/** The choice sent with page requests too, so the server's page opens in it (server/routes/spa.ts). */
export const THEME_COOKIE = 'shinobu-theme';
export function readThemeChoice(): ThemeChoice {
  const stored = globalThis.localStorage?.getItem(THEME_STORAGE_KEY);
  return stored === 'light' || stored === 'dark' || stored === 'system' ? stored : 'system';
}

/** The chosen theme (stored locally); "system" follows the browser (ThemeRoot.tsx). */
export function useThemeChoice(): {
  choice: ThemeChoice;
  setChoice: (choice: ThemeChoice) => void;
} {
  const [choice, setChoiceState] = useState<ThemeChoice>(readThemeChoice);
  const setChoice = useCallback((next: ThemeChoice) => {
    localStorage.setItem(THEME_STORAGE_KEY, next);
    document.cookie = `${THEME_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
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
  return { choice, setChoice };
}
