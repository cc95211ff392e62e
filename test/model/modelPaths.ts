/**
 * The paths of a machine's graph (`xstate/graph`) that the model test, the UI replay and the
 * browser replay walk: for the model test, a path to every reachable state, then one more for
 * every transition out of it; for the UI replay, fewer and longer paths that still take every
 * transition and do every event in every state those take. Free of any test runner, so
 * Playwright specs can import it too.
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
  // A path that is the beginning of a longer one adds nothing, nor does a second of the same
  // events. Every beginning is collected once, rather than each path compared with each other.
  const eventsOfPaths = paths.map((path) => path.steps.map((step) => JSON.stringify(step.event)));
  const beginnings = new Set<string>();
  for (const events of eventsOfPaths) {
    for (let length = 1; length < events.length; length++)
      beginnings.add(events.slice(0, length).join('>'));
  }
  const kept = new Set<string>();
  return paths.filter((_path, index) => {
    const description = eventsOfPaths[index]!.join('>');
    if (beginnings.has(description) || kept.has(description)) return false;
    kept.add(description);
    return true;
  });
}

type Path<TMachine extends AnyStateMachine> = StatePath<
  SnapshotFrom<TMachine>,
  EventFromLogic<TMachine>
>;
type Snapshot = { value: unknown };
type AnyTransition = ReturnType<AnyStateMachine['getTransitionData']>[number];

/** One step to take: the event a state is offered, the transitions it takes, where it ends. */
function stepKey(machine: AnyStateMachine, from: Snapshot, event: AnyEventObject, to: Snapshot) {
  const taken = AFTER_EVENT.test(event.type)
    ? []
    : machine.getTransitionData(from as never, event).map(transitionLabel);
  return JSON.stringify([from.value, event, taken, to.value]);
}

/** A transition as a reader finds it in the machine: its state, its event and its place. */
export function transitionLabel(transition: AnyTransition): string {
  const { source, eventType } = transition;
  const alternatives = eventType
    ? (source.transitions.get(eventType) ?? [])
    : (source.always ?? []);
  const index = alternatives.indexOf(transition);
  return `${source.id} on "${eventType || '(always)'}"${alternatives.length > 1 ? ` #${index + 1}` : ''}`;
}

/**
 * Paths for a replay that is costly per path (a screen mounted for each): together they do
 * every event the model offers in every state of the machine, as often as the transitions it
 * takes there differ (a guard's two outcomes are two steps), but in a state of the machine
 * rather than in every context the graph tells apart, which the model test walks one by one.
 * Each path starts at the initial state and goes on from where it is to the nearest step not
 * taken yet, until `maxSteps`; then a new path starts.
 */
export function transitionCoverPaths<TMachine extends AnyStateMachine>(
  machine: TMachine,
  spec: PathSpec<TMachine>,
  {
    maxSteps = 30,
    endsPath = () => false,
  }: {
    maxSteps?: number;
    /** An event after which the path cannot go on (the member has left the screen). */
    endsPath?: (
      from: SnapshotFrom<TMachine>,
      event: EventFromLogic<TMachine>,
      to: SnapshotFrom<TMachine>,
    ) => boolean;
  } = {},
): Path<TMachine>[] {
  const serializeState = spec.serializeState ?? defaultSerialize;
  const options = {
    events: applicableEvents(spec),
    input: spec.input,
    serializeState: (snapshot: SnapshotFrom<TMachine>) => serializeState(snapshot),
  } as never;
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
  interface Edge {
    to: string;
    key: string;
    ends: boolean;
    step: Path<TMachine>['steps'][number];
  }
  const edges = new Map<string, Edge[]>();
  for (const [source, { state: from, transitions }] of Object.entries(adjacency)) {
    edges.set(
      source,
      Object.values(transitions).map(({ event, state }) => ({
        to: serializeState(state),
        key: stepKey(machine, from as Snapshot, event as AnyEventObject, state as Snapshot),
        ends: endsPath(from, event, state),
        step: { event, state },
      })),
    );
  }
  const [initialPath] = getShortestPaths(machine, { ...(options as object), events: [] } as never);
  const initialState = initialPath!.state as SnapshotFrom<TMachine>;
  const initialKey = serializeState(initialState);
  const untaken = new Set([...edges.values()].flat().map((edge) => edge.key));
  const hasUntaken = (node: string) => (edges.get(node) ?? []).some((e) => untaken.has(e.key));

  /** The shortest way from `start` to a state with a step not taken yet, then that step. */
  const towardsUntaken = (start: string): Edge[] | undefined => {
    const cameBy = new Map<string, { from: string; edge: Edge } | null>([[start, null]]);
    const queue = [start];
    while (queue.length > 0) {
      const node = queue.shift()!;
      const next = (edges.get(node) ?? []).find((edge) => untaken.has(edge.key));
      if (next) {
        const way = [next];
        for (let link = cameBy.get(node); link; link = cameBy.get(link.from))
          way.unshift(link.edge);
        return way;
      }
      for (const edge of edges.get(node) ?? []) {
        if (edge.ends || cameBy.has(edge.to)) continue;
        cameBy.set(edge.to, { from: node, edge });
        queue.push(edge.to);
      }
    }
    return undefined;
  };

  const paths: Path<TMachine>[] = [];
  while (untaken.size > 0) {
    const steps: Path<TMachine>['steps'] = [
      { state: initialState, event: { type: 'xstate.init' } as EventFromLogic<TMachine> },
    ];
    let at = initialKey;
    let taken = 0;
    for (;;) {
      // Prefer a step that leads where more remains to be taken.
      const out = (edges.get(at) ?? []).filter((edge) => untaken.has(edge.key));
      const here =
        out.find((edge) => !edge.ends && hasUntaken(edge.to)) ??
        out.find((edge) => !edge.ends) ??
        out[0];
      const way = here ? [here] : towardsUntaken(at);
      if (!way || (taken > 0 && steps.length - 1 + way.length > maxSteps)) break;
      for (const edge of way) {
        steps.push(edge.step);
        if (untaken.delete(edge.key)) taken += 1;
        at = edge.to;
      }
      if (way.at(-1)!.ends) break;
    }
    if (taken === 0)
      throw new Error(`${machine.id}: no path from the start reaches ${[...untaken].join(', ')}`);
    const last = steps[steps.length - 1]!;
    paths.push({ state: last.state, steps, weight: steps.length - 1 });
  }
  return paths;
}

/**
 * What a set of paths walks on the bare machine: the transitions it takes (with the eventless
 * ones that follow an event) and the pairs of a state and an event it does. A replay that
 * walks fewer paths than the model compares the two.
 */
export function walkedBy<TMachine extends AnyStateMachine>(
  machine: TMachine,
  spec: PathSpec<TMachine>,
  paths: Path<TMachine>[],
): { transitions: Set<string>; pairs: Set<string> } {
  const transitions = new Set<string>();
  const pairs = new Set<string>();
  recordStartsWith(() => undefined);
  for (const path of paths) {
    const clock = new SimulatedClock();
    const actor = createActor(machine, {
      input: spec.input,
      clock,
      inspect: (event) => {
        if (event.type !== '@xstate.microstep' || event.actorRef !== actor) return;
        for (const transition of (event as unknown as { _transitions: AnyTransition[] })
          ._transitions)
          transitions.add(transitionLabel(transition));
      },
    });
    actor.start();
    for (const step of path.steps) {
      if (step.event.type === 'xstate.init') continue;
      const before = actor.getSnapshot() as Snapshot;
      pairs.add(`${JSON.stringify(before.value)} × ${JSON.stringify(step.event)}`);
      const delay = AFTER_EVENT.exec(step.event.type);
      if (delay) clock.increment(Number(delay[1]));
      else actor.send(step.event);
    }
    actor.stop();
  }
  return { transitions, pairs };
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
