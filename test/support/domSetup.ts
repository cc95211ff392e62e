import { cleanup } from '@testing-library/react';
import { toast } from 'react-toastify';
import { afterEach, beforeEach } from 'vitest';

// Files that choose `// @vitest-environment node` (config, source scans) have no DOM.
const hasDom = typeof window !== 'undefined';

afterEach(() => {
  if (!hasDom) return;
  cleanup();
  localStorage.clear();
});

// A worker runs many files in one module graph: a toast raised after an earlier test ended
// waits in react-toastify's queue for the next container. With no container mounted,
// dismissing drops what waits.
beforeEach(() => {
  toast.dismiss();
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
