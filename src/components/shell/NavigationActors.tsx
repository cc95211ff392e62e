import { useActorRef } from '@xstate/react';
import { useEffect } from 'react';
import { inspectOption } from '../../services/clientState/inspector';
import type { NavigationRule } from './menu';
import type { NavigationMachines } from './navigationMachines';
import type { ShellSession } from './shellSession';

export { provideNavigationMachines } from './navigationMachines';

export interface RunningNavigation {
  open: (rule: NavigationRule) => void;
  lettersChanged: () => void;
}

/** Runs the two statecharts, and hands their entry points to the provider while it does. */
export function NavigationActors({
  machines,
  session,
  started,
}: {
  machines: NavigationMachines;
  session: ShellSession;
  started: (navigation: RunningNavigation | undefined) => void;
}) {
  const memory = useActorRef(machines.memory, inspectOption());
  const timecapsule = useActorRef(machines.timecapsule, inspectOption());

  const loggedIn = session.status === 'authenticated' && session.user !== null;
  useEffect(() => {
    if (session.status === 'loading') return;
    timecapsule.send({ type: loggedIn ? 'SIGNED_IN' : 'SIGNED_OUT' });
  }, [timecapsule, session.status, loggedIn]);

  const user = session.user;
  useEffect(() => {
    started({
      open: (rule) => {
        if (rule === 'timecapsule') {
          // Letters written since the last look change the answer: read them again after.
          timecapsule.send({ type: 'OPEN' });
          timecapsule.send({ type: 'RELOAD' });
        } else if (rule === 'endingnote') {
          machines.endingnote(loggedIn ? (user?.id ?? null) : null);
        } else {
          memory.send({
            type: 'OPEN',
            loggedIn,
            hasToken: session.accessToken() !== undefined,
            memorialPageId: user?.memorialPageId ?? null,
          });
        }
      },
      lettersChanged: () => timecapsule.send({ type: 'RELOAD' }),
    });
    return () => started(undefined);
  }, [started, machines, memory, timecapsule, loggedIn, user, session]);
  return null;
}
