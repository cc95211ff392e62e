import { fromPromise } from 'xstate';
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

/**
 * The memory and timecapsule navigation statecharts with their effects, and the endingnote
 * entry, which is no flow: the own note when signed in, else login.
 */
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
    endingnote: (userId: string | null) =>
      userId === null ? effects.goToLogin('endingnote') : effects.navigate(`/endingnote/${userId}`),
    timecapsule: timecapsuleNavigationMachine.provide({
      actors: { loadUnsentLetters: fromPromise(loadUnsentLetters) },
      actions: { navigate, goToLogin: () => effects.goToLogin('timecapsule'), reportLoadFailure },
    }),
  };
}

export type NavigationMachines = ReturnType<typeof provideNavigationMachines>;
