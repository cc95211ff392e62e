import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Files that choose `// @vitest-environment node` (config, source scans) have no DOM.
const hasDom = typeof window !== 'undefined';

afterEach(() => {
  if (!hasDom) return;
  cleanup();
  localStorage.clear();
});

// jsdom has no matchMedia; screens ask it for the colour scheme and breakpoints.
if (hasDom && !window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
