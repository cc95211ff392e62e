import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

/**
 * Which parts of the frame a page shows. One designated route is full-screen (no header,
 * footer, tab bar or banner: the death-confirmation flow, docs/app-shell.md); any page can
 * hide them itself with `useShellChrome`.
 */
export const FULL_SCREEN_ROUTES: readonly string[] = ['/death-confirmation'];

export interface ChromeVisibility {
  header: boolean;
  footer: boolean;
}

interface ChromeControl {
  override: Partial<ChromeVisibility>;
  setOverride: (override: Partial<ChromeVisibility>) => void;
}

const ChromeContext = createContext<ChromeControl | undefined>(undefined);

export function ShellChromeProvider({ children }: { children: ReactNode }) {
  const [override, setOverride] = useState<Partial<ChromeVisibility>>({});
  const value = useMemo(() => ({ override, setOverride }), [override]);
  return <ChromeContext.Provider value={value}>{children}</ChromeContext.Provider>;
}

/** What the frame shows on `pathname`, after the page's own choice. */
export function useChromeVisibility(pathname: string): ChromeVisibility {
  const control = useContext(ChromeContext);
  const fullScreen = FULL_SCREEN_ROUTES.includes(pathname);
  return {
    header: control?.override.header ?? !fullScreen,
    footer: control?.override.footer ?? !fullScreen,
  };
}

/**
 * For a page: show or hide the header and footer while the page is shown, e.g.
 * `useShellChrome({ header: false, footer: false })`; leaving the page restores the default.
 */
export function useShellChrome({ header, footer }: Partial<ChromeVisibility>): void {
  const control = useContext(ChromeContext);
  if (!control) throw new Error('useShellChrome outside the app layout');
  const { setOverride } = control;
  useEffect(() => {
    setOverride({ header, footer });
    return () => setOverride({});
  }, [setOverride, header, footer]);
}
