import { assign, emit, setup } from 'xstate';

/**
 * The unsaved-changes guard: while a form holds unsaved changes,
 * leaving the page is aborted and the unsaved-warning dialog opens; confirming proceeds to
 * the target (a full page load when the target is a hash URL), cancelling stays on the page
 * with everything typed intact. The dialog's opening and closing are emitted as
 * `unsavedWarning.open` / `unsavedWarning.close`.
 *
 * The machine only decides; the screen's hook gives the actions their effects with
 * `.provide()` (react-router's blocker, `location.assign`). Closing or reloading the tab is
 * not a navigation the router sees: the hook answers it with the browser's own prompt.
 */

export interface NavigationTarget {
  /** Where the user wanted to go, as a URL or path. */
  href: string;
  /** A hash URL (`#…`) is reached by a full page load rather than by the router. */
  isHashUrl: boolean;
}

export interface UnsavedChangesGuardContext {
  /** The navigation held back while the dialog asks. */
  target: NavigationTarget | null;
}

export type UnsavedChangesGuardEvent =
  | { type: 'FORM.CHANGED' }
  | { type: 'FORM.SAVED' }
  | { type: 'NAVIGATE'; target: NavigationTarget }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' };

export type UnsavedChangesGuardEmitted =
  { type: 'unsavedWarning.open'; target: NavigationTarget } | { type: 'unsavedWarning.close' };

export const unsavedChangesGuardMachine = setup({
  types: {
    context: {} as UnsavedChangesGuardContext,
    events: {} as UnsavedChangesGuardEvent,
    emitted: {} as UnsavedChangesGuardEmitted,
  },
  actions: {
    /** Lets the held navigation continue inside the app (the router's blocker proceeds). */
    proceedNavigation: () => undefined,
    /** Loads the held hash URL as a whole new page. */
    loadTargetFully: () => undefined,
    /** Drops the held navigation: the page and its form stay as they are. */
    stayOnPage: () => undefined,
    holdTarget: assign({
      target: ({ event }) => (event.type === 'NAVIGATE' ? event.target : null),
    }),
    forgetTarget: assign({ target: null }),
    openWarning: emit(({ context }) => ({
      type: 'unsavedWarning.open' as const,
      target: context.target!,
    })),
    closeWarning: emit({ type: 'unsavedWarning.close' as const }),
  },
  guards: {
    targetIsHashUrl: ({ context }) => context.target?.isHashUrl === true,
  },
}).createMachine({
  id: 'unsavedChangesGuard',
  context: { target: null },
  initial: 'clean',
  states: {
    clean: {
      on: { 'FORM.CHANGED': 'dirty' },
    },
    dirty: {
      on: {
        'FORM.SAVED': 'clean',
        NAVIGATE: { target: 'warning', actions: 'holdTarget' },
      },
    },
    warning: {
      entry: 'openWarning',
      exit: 'closeWarning',
      on: {
        CONFIRM: [
          {
            guard: 'targetIsHashUrl',
            target: 'clean',
            actions: ['loadTargetFully', 'forgetTarget'],
          },
          { target: 'clean', actions: ['proceedNavigation', 'forgetTarget'] },
        ],
        CANCEL: { target: 'dirty', actions: ['stayOnPage', 'forgetTarget'] },
      },
    },
  },
});
