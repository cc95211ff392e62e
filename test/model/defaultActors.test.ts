import { createActor, toPromise, type AnyActorLogic, type AnyStateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';

/** Every machine exported from src/machines, found by the bundler rather than listed by hand. */
const modules = import.meta.glob<Record<string, unknown>>('../../src/machines/*.ts', {
  eager: true,
});
const machines = Object.values(modules)
  .flatMap((module) => Object.values(module))
  .filter(
    (value): value is AnyStateMachine =>
      typeof value === 'object' && value !== null && 'root' in value && 'implementations' in value,
  );

/** Runs one default actor by itself and answers how it ended. */
async function outcomeOf(logic: AnyActorLogic): Promise<unknown> {
  const actor = createActor(logic, { input: {} });
  const result = toPromise(actor).then(
    (output) => ({ resolved: output }),
    (error: unknown) => ({ rejected: (error as Error).message }),
  );
  actor.start();
  return result;
}

describe('default actors', () => {
  for (const machine of machines) {
    const actors = Object.entries(machine.implementations.actors).filter(
      ([, logic]) => !('root' in (logic as object)),
    );
    for (const [name, logic] of actors) {
      it(`${machine.id}.${name} fails, naming itself, until it is provided`, async () => {
        expect(await outcomeOf(logic as AnyActorLogic)).toEqual({
          rejected: `The actor "${name}" of the machine "${machine.id}" was not provided`,
        });
      });
    }
  }
});
