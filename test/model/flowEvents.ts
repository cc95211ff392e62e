/**
 * The events each card flow's paths are generated from, shared by its model test (the bare
 * machine) and its replays in the UI and the browser, so that all three walk the same paths.
 */
import type {
  NavigationTarget,
  UnsavedChangesGuardEvent,
} from '../../src/machines/unsavedChangesGuard';

export const routeTarget: NavigationTarget = { href: '/dashboard', isHashUrl: false };
export const hashTarget: NavigationTarget = { href: '/faq#ending-note', isHashUrl: true };

export const unsavedChangesGuardEvents: UnsavedChangesGuardEvent[] = [
  { type: 'FORM.CHANGED' },
  { type: 'FORM.SAVED' },
  { type: 'NAVIGATE', target: routeTarget },
  { type: 'NAVIGATE', target: hashTarget },
  { type: 'CONFIRM' },
  { type: 'CANCEL' },
];
