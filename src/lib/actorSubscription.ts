import type { AnyActorRef } from 'xstate';

/**
 * The subscription React's store hook (`useSyncExternalStore`) takes, following an actor's
 * snapshots (its error too, which ends them); an actor not there yet has nothing to follow.
 */
export const actorSubscription = (actor: AnyActorRef | undefined) => (onChange: () => void) => {
  const subscription = actor?.subscribe({ next: onChange, error: onChange });
  return () => subscription?.unsubscribe();
};
