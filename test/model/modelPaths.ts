/**
 * The paths of a machine's graph (`xstate/graph`) that the model test, the UI replay and the
 * browser replay walk: a path to every reachable state, then one more for every transition
 * out of it. Free of any test runner, so Playwright specs can import it too.
 */
import {
  fromCallback,
  type AnyStateMachine,
  type EventFromLogic,
  type InputFrom,
  type SnapshotFrom,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths, getStateNodes, type StatePath } from 'xstate/graph';

export type AnyStateNode = ReturnType<typeof getStateNodes>[number];

/** An actor started by a path's step, with the input the machine gave it. */
export interface InvokedActor {
  /** The implementation's name (`src`), e.g. the API call it stands for. */
  src: string;
  input: unknown;
}

/** What the paths of a machine are generated from. */
export interface PathSpec<TMachine extends AnyStateMachine> {
  input?: InputFrom<TMachine>;
  /** Every event the model may send, including actor outcomes and user events. */
  events:
    EventFromLogic<TMachine>[] | ((snapshot: SnapshotFrom<TMachine>) => EventFromLogic<TMachine>[]);
  /** How snapshots are told apart; by default the state value and the context. */
  serializeState?: (snapshot: SnapshotFrom<TMachine>) => string;
}

export const AFTER_EVENT = /^xstate\.after\.(\d+)\./;

/** Where the recorders of the running path put the actors started. */
let recordStart: (actor: InvokedActor) => void = () => undefined;

/** Sends the starts of recorded actors to `record` (the path being replayed). */
export function recordStartsWith(record: (actor: InvokedActor) => void): void {
  recordStart = record;
}

/** An actor that records its start and input, then never settles on its own. */
const recorder = (src: string) =>
  fromCallback(({ input }) => {
    recordStart({ src, input });
  });

export function statePathKey(node: AnyStateNode): string {
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

export function leafNodes(snapshot: unknown): AnyStateNode[] {
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
