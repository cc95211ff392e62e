/**
 * Model-based tests from a machine's graph: every state and every transition is walked.
 *
 * `describeModel` generates, with `xstate/graph`, a path to every reachable state and one
 * more path for every transition out of it, then replays each path on a real actor of the
 * machine:
 * - invoked actors never settle on their own: their outcomes are the path's events
 *   (`xstate.done.actor.<id>` with an output, `xstate.error.actor.<id>` with an error),
 *   which you list in `events` like any other; each start is recorded with the input the
 *   machine gave it, so an assertion can check what an API call would have been sent;
 * - delayed transitions (`after`) run on a simulated clock that the path advances;
 * - after every step the actor must be in the state the graph predicted, and the assertion
 *   of every leaf state it is in runs, with the actions that step executed.
 *
 * Its last test fails if a state or a transition of the machine was reached by no path; its
 * first fails if a leaf state has no assertion or an assertion names no state; another if the
 * machine's row of docs/machines/README.md (`npm run figures`) no longer tells its size.
 */
import {
  createActor,
  SimulatedClock,
  type AnyEventObject,
  type AnyStateMachine,
  type SnapshotFrom,
} from 'xstate';
import { getShortestPaths, getStateNodes } from 'xstate/graph';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AFTER_EVENT,
  leafNodes,
  leafStateKeys,
  recordStartsWith,
  statePathKey,
  transitionCoveringPaths,
  withRecordedActors,
  type AnyStateNode,
  type InvokedActor,
  type PathSpec,
} from './modelPaths';

export type { InvokedActor } from './modelPaths';

type AnyTransition = AnyStateNode['always'] extends (infer T)[] | undefined ? T : never;

export interface StepInfo {
  /** The event of the step that led here (undefined for the initial state). */
  event: AnyEventObject | undefined;
  /** Names of the actions the actor executed during that step. */
  actions: string[];
  /** Events the machine emitted during that step. */
  emitted: AnyEventObject[];
  /** How many transitions the step took: 0 when the machine ignored the event. */
  transitions: number;
  /** Actors started during that step, with the input the machine gave them. */
  invoked: InvokedActor[];
  /** Every step of the path so far, this one last. */
  path: StepInfo[];
}

export interface ModelSpec<TMachine extends AnyStateMachine> extends PathSpec<TMachine> {
  /** The machine with its test implementations of actions and guards (`.provide()`). */
  machine: TMachine;
  /** One assertion per leaf state, keyed by its path ('ready', 'form.editing'). */
  states: Record<
    string,
    (snapshot: SnapshotFrom<TMachine>, step: StepInfo) => void | Promise<void>
  >;
  /** Rules about a whole path, checked once it has been replayed. */
  pathRule?: (path: StepInfo[], last: SnapshotFrom<TMachine>) => void;
}

/** Registers the model-based tests of one machine in the current test file. */
export function describeModel<TMachine extends AnyStateMachine>(
  name: string,
  spec: ModelSpec<TMachine>,
): void {
  const machine = withRecordedActors(spec.machine);
  const allNodes = getStateNodes(machine.root).filter((node) => node !== machine.root);
  const allTransitions: AnyTransition[] = [machine.root, ...getStateNodes(machine.root)].flatMap(
    (node) => [...[...node.transitions.values()].flat(), ...(node.always ?? [])],
  );
  const leafKeys = leafStateKeys(machine);

  const visitedNodes = new Set<AnyStateNode>();
  const takenTransitions = new Set<AnyTransition>();

  describe(`${name} (model)`, () => {
    it('has an assertion for every leaf state and no assertion for a state that does not exist', () => {
      expect(
        leafKeys.filter((key) => !(key in spec.states)),
        'leaf states without an assertion',
      ).toEqual([]);
      expect(
        Object.keys(spec.states).filter((key) => !leafKeys.includes(key)),
        'assertions naming no state',
      ).toEqual([]);
    });

    const paths = transitionCoveringPaths(machine, spec);
    it('is told as it is in docs/machines/README.md', () => {
      expect(figuresRowOf(spec.machine.id), 'states, transitions, generated paths').toEqual([
        allNodes.length,
        new Set(allTransitions).size,
        paths.length,
      ]);
    });

    for (const path of paths) {
      const events = path.steps
        .map((step) => step.event.type)
        .filter((type) => type !== 'xstate.init');
      const title = events.length === 0 ? 'initial state' : events.join(' → ');
      it(`path: ${title}`, async () => {
        const clock = new SimulatedClock();
        let actions: string[] = [];
        let emitted: AnyEventObject[] = [];
        let invoked: InvokedActor[] = [];
        let transitions = 0;
        const history: StepInfo[] = [];
        recordStartsWith((started) => void invoked.push(started));
        const actor = createActor(machine, {
          input: spec.input,
          clock,
          inspect: (event) => {
            if (event.type === '@xstate.microstep') {
              for (const transition of (event as unknown as { _transitions: AnyTransition[] })
                ._transitions) {
                takenTransitions.add(transition);
                if (event.actorRef === actor) transitions += 1;
              }
            }
            if (event.type === '@xstate.action' && event.actorRef === actor)
              actions.push(event.action.type);
          },
        });
        actor.on('*', (event) => void emitted.push(event as AnyEventObject));
        actor.start();
        const check = async (
          expected: SnapshotFrom<TMachine>,
          event: AnyEventObject | undefined,
        ) => {
          const snapshot = actor.getSnapshot() as SnapshotFrom<TMachine>;
          const valueOf = (s: SnapshotFrom<TMachine>) => (s as { value: unknown }).value;
          expect(valueOf(snapshot), `state after ${event?.type ?? 'start'}`).toEqual(
            valueOf(expected),
          );
          for (const node of (snapshot as unknown as { _nodes: AnyStateNode[] })._nodes)
            visitedNodes.add(node);
          const step: StepInfo = { event, actions, emitted, invoked, transitions, path: history };
          history.push(step);
          for (const leaf of leafNodes(snapshot)) {
            await spec.states[statePathKey(leaf)]?.(snapshot, step);
          }
          actions = [];
          emitted = [];
          invoked = [];
          transitions = 0;
        };
        const steps = path.steps.filter((step) => step.event.type !== 'xstate.init');
        await check(steps.length > 0 ? firstState(machine, spec) : path.state, undefined);
        for (const step of steps) {
          const delay = AFTER_EVENT.exec(step.event.type);
          if (delay) clock.increment(Number(delay[1]));
          else actor.send(step.event);
          await check(step.state, step.event);
        }
        spec.pathRule?.(history, actor.getSnapshot() as SnapshotFrom<TMachine>);
        actor.stop();
      });
    }

    // Runs last: tests of one file run in the order they are declared.
    it('reaches every state and every transition', () => {
      const unvisited = allNodes.filter((node) => !visitedNodes.has(node)).map((node) => node.id);
      const untaken = allTransitions
        .filter((transition) => !takenTransitions.has(transition))
        .map((transition) => `${transition.source.id} on "${transition.eventType || '(always)'}"`);
      expect(unvisited, `${name}: states reached by no path`).toEqual([]);
      expect(untaken, `${name}: transitions taken by no path`).toEqual([]);
    });
  });
}

/** The states, transitions and generated paths docs/machines/README.md gives a machine. */
function figuresRowOf(machineId: string): number[] | undefined {
  const readme = readFileSync(new URL('../../docs/machines/README.md', import.meta.url), 'utf8');
  const row = readme
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .find((cells) => cells[1]?.startsWith(`[${machineId}]`));
  return row?.slice(2, 5).map(Number);
}

function firstState<TMachine extends AnyStateMachine>(
  machine: TMachine,
  spec: ModelSpec<TMachine>,
): SnapshotFrom<TMachine> {
  const [initial] = getShortestPaths(machine, { events: [], input: spec.input } as never);
  return initial!.state as SnapshotFrom<TMachine>;
}
