/** The machine's own named actions of a step, without xstate's built-ins (spawn, stop child). */
export function ownActions(actions: string[]): string[] {
  return actions.filter((name) => !name.startsWith('xstate.'));
}
