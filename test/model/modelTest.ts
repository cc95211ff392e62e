/**
 * Model-based tests from a machine's graph (design.md §3, §8).
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
 * first fails if a leaf state has no assertion or an assertion names no state.
 */
import {
  createActor,
  fromCallback,
  SimulatedClock,
  type AnyEventObject,
  type AnyStateMachine,
  type EventFromLogic,
  type InputFrom,
  type SnapshotFrom,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths, getStateNodes, type StatePath } from 'xstate/graph';
import { describe, expect, it } from 'vitest';

type AnyStateNode = ReturnType<typeof getStateNodes>[number];
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

export interface InvokedActor {
  /** The implementation's name (`src`), e.g. the API call it stands for. */
  src: string;
  input: unknown;
}

export interface ModelSpec<TMachine extends AnyStateMachine> {
  /** The machine with its test implementations of actions and guards (`.provide()`). */
  machine: TMachine;
  input?: InputFrom<TMachine>;
  /** Every event the model may send, including actor outcomes and user events. */
  events:
    EventFromLogic<TMachine>[] | ((snapshot: SnapshotFrom<TMachine>) => EventFromLogic<TMachine>[]);
  /** One assertion per leaf state, keyed by its path ('ready', 'form.editing'). */
  states: Record<
    string,
    (snapshot: SnapshotFrom<TMachine>, step: StepInfo) => void | Promise<void>
  >;
  /** How snapshots are told apart; by default the state value and the context. */
  serializeState?: (snapshot: SnapshotFrom<TMachine>) => string;
  /** Rules about a whole path, checked once it has been replayed. */
  pathRule?: (path: StepInfo[], last: SnapshotFrom<TMachine>) => void;
}

/** What the paths of a machine are generated from. */
export type PathSpec<TMachine extends AnyStateMachine> = Pick<
  ModelSpec<TMachine>,
  'events' | 'input' | 'serializeState'
>;

export const AFTER_EVENT = /^xstate\.after\.(\d+)\./;

/** Where the recorders of the running path put the actors started. */
let recordStart: (actor: InvokedActor) => void = () => undefined;

/** An actor that records its start and input, then never settles on its own. */
const recorder = (src: string) =>
  fromCallback(({ input }) => {
    recordStart({ src, input });
  });

function statePathKey(node: AnyStateNode): string {
  return node.path.join('.');
}

/** Paths that reach every state, then every transition once more by one step. */
export function transitionCoveringPaths<TMachine extends AnyStateMachine>(
  machine: TMachine,
  spec: PathSpec<TMachine>,
): StatePath<SnapshotFrom<TMachine>, EventFromLogic<TMachine>>[] {
  const serializeState = spec.serializeState ?? defaultSerialize;
  const options = {
    events: applicableEvents(spec),
    input: spec.input,
    serializeState: (snapshot: SnapshotFrom<TMachine>) => serializeState(snapshot),
  } as never;
  const toStates = getShortestPaths(machine, options) as unknown as StatePath<
    SnapshotFrom<TMachine>,
    EventFromLogic<TMachine>
  >[];
  const pathTo = new Map(toStates.map((path) => [serializeState(path.state), path]));
  const adjacency = getAdjacencyMap(machine, options) as unknown as Record<
    string,
    {
      state: SnapshotFrom<TMachine>;
      transitions: Record<
        string,
        { event: EventFromLogic<TMachine>; state: SnapshotFrom<TMachine> }
      >;
    }
  >;
  const paths = [...toStates];
  for (const [source, { transitions }] of Object.entries(adjacency)) {
    const head = pathTo.get(source);
    if (!head) continue;
    for (const { event, state } of Object.values(transitions)) {
      paths.push({
        state,
        steps: [...head.steps, { state, event }],
        weight: head.weight + 1,
      });
    }
  }
  // A path that is the beginning of a longer one adds nothing.
  const describePath = (path: (typeof paths)[number]) =>
    path.steps.map((step) => JSON.stringify(step.event)).join('>');
  const descriptions = paths.map(describePath);
  return paths.filter(
    (_path, index) =>
      !descriptions.some(
        (other, j) =>
          j !== index &&
          other.length > descriptions[index]!.length &&
          other.startsWith(`${descriptions[index]}>`),
      ) && descriptions.indexOf(descriptions[index]!) === index,
  );
}

/**
 * Actor outcomes and timers only happen while their actor runs or their state is active, so
 * the model only offers them then (an unhandled actor error would otherwise stop the machine).
 */
function applicableEvents<TMachine extends AnyStateMachine>(
  spec: PathSpec<TMachine>,
): (snapshot: SnapshotFrom<TMachine>) => EventFromLogic<TMachine>[] {
  return (snapshot) => {
    const events = typeof spec.events === 'function' ? spec.events(snapshot) : spec.events;
    const children = Object.keys((snapshot as { children: Record<string, unknown> }).children);
    const activeIds = (snapshot as unknown as { _nodes: AnyStateNode[] })._nodes.map(
      (node) => node.id,
    );
    return events.filter((event) => {
      const actorOutcome = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(event.type);
      if (actorOutcome) return children.includes(actorOutcome[1]!);
      const timer = /^xstate\.after\.\d+\.(.+)$/.exec(event.type);
      if (timer) return activeIds.includes(timer[1]!);
      return true;
    });
  };
}

function defaultSerialize(snapshot: { value: unknown; context: unknown }): string {
  return JSON.stringify({ value: snapshot.value, context: snapshot.context });
}

function leafNodes(snapshot: unknown): AnyStateNode[] {
  const nodes = (snapshot as { _nodes: AnyStateNode[] })._nodes;
  return nodes.filter((node) => node.type === 'atomic' || node.type === 'final');
}

/** The keys ('ready', 'form.editing') of the leaf states a snapshot is in. */
export function leafKeysOf(snapshot: unknown): string[] {
  return leafNodes(snapshot).map(statePathKey);
}

/** The keys of every leaf state of a machine. */
export function leafStateKeys(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root)
    .filter((node) => node.type === 'atomic' || node.type === 'final')
    .map(statePathKey);
}

/** The machine with every invoked actor replaced by one that records its start and waits. */
export function withRecordedActors<TMachine extends AnyStateMachine>(machine: TMachine): TMachine {
  const invokedSources = Object.fromEntries(
    getStateNodes(machine.root).flatMap((node) =>
      node.invoke.map((invoke) => [
        typeof invoke.src === 'string' ? invoke.src : invoke.id,
        recorder(typeof invoke.src === 'string' ? invoke.src : invoke.id),
      ]),
    ),
  );
  return machine.provide({ actors: invokedSources } as never) as TMachine;
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
        recordStart = (started) => void invoked.push(started);
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

function firstState<TMachine extends AnyStateMachine>(
  machine: TMachine,
  spec: ModelSpec<TMachine>,
): SnapshotFrom<TMachine> {
  const [initial] = getShortestPaths(machine, { events: [], input: spec.input } as never);
  return initial!.state as SnapshotFrom<TMachine>;
}
