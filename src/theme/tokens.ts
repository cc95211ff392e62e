/** Design tokens: the only place colours, fonts and sizes are defined. */
export const breakpoints = {
  xxs: 360,
  xs: 660,
  sm: 800,
  md: 1020,
  lg: 1280,
  xl: 1420,
  xxl: 1600,
} as const;

/** Below this height a screen counts as short. */
export const shortScreenHeight = 820;

export const sizes = {
  headerHeight: 64,
  tabBarHeight: 64,
  modalWidth: 480,
  modalWidthSmall: 320,
  avatar: 44,
  avatarSmall: 40,
} as const;

export const layers = {
  portal: 1_000_000,
  toast: 10_000_000,
} as const;

export const fonts = {
  body: '"Hiragino Kaku Gothic ProN", "Hiragino Sans", "Noto Sans JP", "Noto Sans CJK JP", Meiryo, "Yu Gothic", sans-serif',
  heading:
    '"M PLUS Rounded 1c", "Hiragino Maru Gothic ProN", "Kosugi Maru", "Hiragino Kaku Gothic ProN", "Noto Sans CJK JP", sans-serif',
} as const;

export const socialColours = {
  line: '#06C755',
  facebook: '#1877F2',
  twitter: '#000000',
  google: '#FFFFFF',
} as const;

export interface Palette {
  /** Page background: light blue in the light theme. */
  base: string;
  surface: string;
  text: string;
  textMuted: string;
  border: string;
  primary: string;
  onPrimary: string;
  secondary: string;
  onSecondary: string;
  attention: string;
  success: string;
  focus: string;
  /** Text on the attention colour (a badge). */
  onAttention: string;
}

// Contrast of text on its background is at least 4.5:1 in both palettes (WCAG AA).
export const palettes: Record<'light' | 'dark', Palette> = {
  light: {
    base: '#e8f4fb',
    surface: '#ffffff',
    text: '#1f2d3a',
    textMuted: '#4a5b6b',
    border: '#c5d6e3',
    primary: '#2f6690',
    onPrimary: '#ffffff',
    secondary: '#8a5a2b',
    onSecondary: '#ffffff',
    attention: '#b3261e',
    success: '#2e7d32',
    focus: '#1a73e8',
    onAttention: '#ffffff',
  },
  dark: {
    base: '#121b24',
    surface: '#1c2833',
    text: '#e6edf3',
    textMuted: '#a9b6c2',
    border: '#34495c',
    primary: '#8cc3ec',
    onPrimary: '#0b1a26',
    secondary: '#e0b084',
    onSecondary: '#1d1207',
    attention: '#ff8a80',
    success: '#81c784',
    focus: '#8ab4f8',
    onAttention: '#1f0705',
  },
};

const paletteNames = Object.keys(palettes.light) as (keyof Palette)[];
const variableOf = (name: keyof Palette) => `--colour-${name}`;

/**
 * The palette's colours as CSS custom properties of `mode`: the page defines both sets
 * (ThemeRoot.tsx), so the markup and its class names are the same in either theme, and the
 * server's page shows in the reader's theme before any script runs.
 */
export function paletteVariables(mode: 'light' | 'dark'): string {
  return paletteNames.map((name) => `${variableOf(name)}: ${palettes[mode][name]};`).join(' ');
}

const colourVariables = {} as Palette;
for (const name of paletteNames) colourVariables[name] = `var(${variableOf(name)})`;

export interface ShinobuTheme {
  colours: Palette;
  fonts: typeof fonts;
  sizes: typeof sizes;
  layers: typeof layers;
  social: typeof socialColours;
  /** Media query for "narrower than" a breakpoint. */
  below: (name: keyof typeof breakpoints) => string;
  /** Media query for "at least" a breakpoint. */
  above: (name: keyof typeof breakpoints) => string;
  /** Media query for a short screen (below 820 px of height). */
  short: string;
}

/** The one theme: colours are the variables of the reader's palette. */
export const theme: ShinobuTheme = {
  colours: colourVariables,
  fonts,
  sizes,
  layers,
  social: socialColours,
  below: (name) => `@media (max-width: ${breakpoints[name] - 0.02}px)`,
  above: (name) => `@media (min-width: ${breakpoints[name]}px)`,
  short: `@media (max-height: ${shortScreenHeight - 0.02}px)`,
};
