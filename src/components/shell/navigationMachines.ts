import { fromPromise } from 'xstate';
import { endingnoteNavigationMachine } from '../../machines/endingnoteNavigation';
import { memoryNavigationMachine } from '../../machines/memoryNavigation';
import { timecapsuleNavigationMachine } from '../../machines/timecapsuleNavigation';
import type { NavigationRule } from './menu';
import { loadMemorialPageContents, loadUnsentLetters } from '../../services/frame/frameReads';

export interface NavigationEffects {
  navigate: (to: string) => void;
  goToLogin: (rule: NavigationRule) => void;
}

const reportLoadFailure = (_: unknown, { error }: { error: unknown }) =>
  console.error('menu navigation: loading failed', error);

/** The three navigation statecharts with their effects. */
export function provideNavigationMachines(effects: NavigationEffects) {
  const navigate = (_: unknown, { to }: { to: string }) => effects.navigate(to);
  return {
    memory: memoryNavigationMachine.provide({
      actors: {
        loadMemorialPageContents: fromPromise(({ input }) =>
          loadMemorialPageContents(input.memorialPageId),
        ),
      },
      actions: { navigate, goToLogin: () => effects.goToLogin('memory'), reportLoadFailure },
    }),
    endingnote: endingnoteNavigationMachine.provide({
      actions: { navigate, goToLogin: () => effects.goToLogin('endingnote') },
    }),
    timecapsule: timecapsuleNavigationMachine.provide({
      actors: { loadUnsentLetters: fromPromise(loadUnsentLetters) },
      actions: { navigate, goToLogin: () => effects.goToLogin('timecapsule'), reportLoadFailure },
    }),
  };
}

export type NavigationMachines = ReturnType<typeof provideNavigationMachines>;
