import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { ThemeProvider, createGlobalStyle } from 'styled-components';
import { paletteVariables, theme } from './tokens';
import { useThemeChoice, type ThemeChoice } from './themeChoice';

const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  /* The system's theme unless the reader chose one (data-theme, themeChoice.ts). */
  :root { ${paletteVariables('light')} color-scheme: light; }
  @media (prefers-color-scheme: dark) {
    :root:not([data-theme='light']) { ${paletteVariables('dark')} color-scheme: dark; }
  }
  :root[data-theme='dark'] { ${paletteVariables('dark')} color-scheme: dark; }
  html {
    /* Pinch zoom is off (spec: the viewport does not zoom) without disabling it for assistive settings. */
    touch-action: pan-x pan-y;
    -webkit-text-size-adjust: 100%;
  }
  body {
    margin: 0;
    min-height: 100vh;
    background: ${({ theme }) => theme.colours.base};
    color: ${({ theme }) => theme.colours.text};
    font-family: ${({ theme }) => theme.fonts.body};
    line-height: 1.7;
  }
  h1, h2, h3 { font-family: ${({ theme }) => theme.fonts.heading}; line-height: 1.4; }
  a { color: ${({ theme }) => theme.colours.primary}; }
  /* 16 px inputs keep mobile browsers from zooming in on focus. */
  input, select, textarea, button { font: inherit; font-size: max(16px, 1em); }
  :focus-visible { outline: 3px solid ${({ theme }) => theme.colours.focus}; outline-offset: 2px; }
`;

interface ThemeChoiceContextValue {
  choice: ThemeChoice;
  setChoice: (choice: ThemeChoice) => void;
}

const ThemeChoiceContext = createContext<ThemeChoiceContextValue | undefined>(undefined);

export function useThemeSetting(): ThemeChoiceContextValue {
  const value = useContext(ThemeChoiceContext);
  if (!value) throw new Error('useThemeSetting outside ThemeRoot');
  return value;
}

export function ThemeRoot({ children }: { children: ReactNode }) {
  const { choice, setChoice } = useThemeChoice();
  useEffect(() => {
    if (choice === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = choice;
  }, [choice]);
  const setting = useMemo(() => ({ choice, setChoice }), [choice, setChoice]);
  return (
    <ThemeChoiceContext.Provider value={setting}>
      <ThemeProvider theme={theme}>
        <GlobalStyle />
        {children}
      </ThemeProvider>
    </ThemeChoiceContext.Provider>
  );
}
