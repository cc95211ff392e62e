import { fromCallback, fromPromise } from 'xstate';

/** What a machine's actor does when the app forgot to give it its effect with `.provide()`. */
export class ActorNotProvidedError extends Error {
  constructor(
    readonly machine: string,
    readonly actor: string,
  ) {
    super(`The actor "${actor}" of the machine "${machine}" was not provided`);
    this.name = 'ActorNotProvidedError';
  }
}

/**
 * The default of an effect a machine invokes: it fails, naming itself, until the app provides
 * the real one, so a missing `.provide()` shows as an error rather than as a success.
 */
export function notProvided<TOutput, TInput = undefined>(machine: string, actor: string) {
  return fromPromise<TOutput, TInput>(() =>
    Promise.reject(new ActorNotProvidedError(machine, actor)),
  );
}

/** The same for a long-running callback actor. */
export function callbackNotProvided<TEvent extends { type: string }>(
  machine: string,
  actor: string,
) {
  return fromCallback<TEvent>(() => {
    throw new ActorNotProvidedError(machine, actor);
  });
}
