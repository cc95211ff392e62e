/**
 * The model-based paths of a flow replayed against its screen: every event is done the way a
 * member or the server would do it, by the flow's executor, and every state the path reaches
 * is checked by what the member sees. Mounting the screen is what costs, so the replay walks
 * fewer and longer paths than `describeModel` runs on the bare machine
 * (`transitionCoverPaths`): together they take every transition the model's paths take and do
 * every event in every state where those do it; a test fails when they miss one. The model
 * test walks the graph's every path, context by context.
 *
 * A flow's executors are a table typed `satisfies Record<EventType, Executor<World>>`, so an
 * event the machine gains without a gesture is a type error; its first test fails when a leaf
 * state has no view assertion or an assertion names no state.
 */
import type { AnyEventObject, AnyStateMachine, SnapshotFrom } from 'xstate';
import { configure, getConfig } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  leafKeysOf,
  leafStateKeys,
  transitionCoveringPaths,
  transitionCoverPaths,
  walkedBy,
  withRecordedActors,
  type PathSpec,
} from '../../model/modelPaths';

/** Does one event to the mounted screen as a gesture or a server outcome. */
export type Executor<TWorld> = (
  world: TWorld,
  event: AnyEventObject,
  /** The machine's state before the event, as the model predicts it. */
  before: ViewStep,
) => Promise<void>;

export interface ViewStep {
  /** The leaf states the model predicts. */
  states: string[];
  /** The event that led here (undefined for the initial state). */
  event: AnyEventObject | undefined;
  /** The leaf states before that event (empty for the initial state). */
  from: string[];
  /** The events of the path so far, this one last. */
  path: AnyEventObject[];
}

/** What the member sees in one leaf state. */
export type ViewAssertion<TWorld> = (world: TWorld, step: ViewStep) => Promise<void> | void;

export interface UiReplaySpec<TMachine extends AnyStateMachine, TWorld> extends PathSpec<TMachine> {
  machine: TMachine;
  /** Renders the real screen, at the start of every path. */
  mount: () => Promise<TWorld> | TWorld;
  executors: Record<string, Executor<TWorld>>;
  /** One view assertion per leaf state, keyed by its path ('ready', 'form.editing'). */
  views: Record<string, ViewAssertion<TWorld>>;
  /** Runs after every path, whatever its outcome. */
  unmount?: (world: TWorld) => Promise<void> | void;
  /**
   * An event after which the member is no longer where the flow runs (a button that opens
   * another page): a path ends with it, since what the chart does next the screen cannot show.
   */
  endsPath?: (
    from: SnapshotFrom<TMachine>,
    event: AnyEventObject,
    to: SnapshotFrom<TMachine>,
  ) => boolean;
}

/** How many paths each flow replayed in the UI (read by the figures of the report). */
export const replayedPaths = new Map<string, number>();

/** Registers the UI replay of one flow in the current test file. */
export function describeUiReplay<TMachine extends AnyStateMachine, TWorld>(
  name: string,
  spec: UiReplaySpec<TMachine, TWorld>,
): void {
  const machine = withRecordedActors(spec.machine);
  const leafKeys = leafStateKeys(machine);
  const paths = transitionCoverPaths(machine, spec, { endsPath: spec.endsPath });
  replayedPaths.set(name, paths.length);

  describe(`${name} (UI replay)`, () => {
    // A file's first path loads the screens' lazy modules in its first steps, on a machine
    // that may be running the other lane and another worker: more than the 1 s Testing
    // Library waits for by default.
    let asyncUtilTimeout = 0;
    beforeAll(() => {
      asyncUtilTimeout = getConfig().asyncUtilTimeout;
      configure({ asyncUtilTimeout: REPLAY_WAIT_MS });
    });
    afterAll(() => configure({ asyncUtilTimeout }));

    it('has a view assertion for every leaf state and none for a state that does not exist', () => {
      expect(
        leafKeys.filter((key) => !(key in spec.views)),
        'leaf states without a view assertion',
      ).toEqual([]);
      expect(
        Object.keys(spec.views).filter((key) => !leafKeys.includes(key)),
        'view assertions naming no state',
      ).toEqual([]);
    });

    it("takes every transition and does every event in every state the model's paths do", () => {
      const model = walkedBy(machine, spec, transitionCoveringPaths(machine, spec));
      const replay = walkedBy(machine, spec, paths);
      expect(
        [...model.transitions].filter((transition) => !replay.transitions.has(transition)),
        'transitions the replay takes on no path',
      ).toEqual([]);
      expect(
        [...model.pairs].filter((pair) => !replay.pairs.has(pair)),
        'events the replay does in no path in that state',
      ).toEqual([]);
      expect(model.transitions.size, 'transitions the model takes').toBeGreaterThan(0);
    });

    for (const [index, path] of paths.entries()) {
      const steps = path.steps.filter((step) => step.event.type !== 'xstate.init');
      const title = `${index + 1}: ${
        steps.length === 0 ? 'initial state' : steps.map((step) => step.event.type).join(' → ')
      }`;
      it(
        `path: ${title}`,
        async () => {
          const world = await spec.mount();
          try {
            const initial = path.steps[0]?.state ?? path.state;
            let before: ViewStep = {
              states: leafKeysOf(initial),
              event: undefined,
              from: [],
              path: [],
            };
            await atStep(0, 'start', () => checkView(spec.views, world, before));
            for (const [at, step] of steps.entries()) {
              const event = step.event as AnyEventObject;
              const executor = spec.executors[event.type];
              if (!executor) throw new Error(`${name}: no executor for ${event.type}`);
              const after: ViewStep = {
                states: leafKeysOf(step.state as SnapshotFrom<TMachine>),
                event,
                from: before.states,
                path: [...before.path, event],
              };
              await atStep(at + 1, event.type, async () => {
                await executor(world, event, before);
                await checkView(spec.views, world, after);
              });
              before = after;
            }
          } finally {
            await spec.unmount?.(world);
          }
        },
        PATH_TIMEOUT_MS,
      );
    }
  });
}

/**
 * A path drives the real screens through up to 30 gestures and server answers, and the
 * file's first path also loads the app frame's modules: more than a unit test's 30 s on a
 * busy two-core machine.
 */
const PATH_TIMEOUT_MS = 90_000;

/**
 * How long a view or an executor waits for the screen to show what it expects: a lazy screen's
 * redirect has taken over 5 s beside the other steps on a slow day. A bound, not a wait.
 */
const REPLAY_WAIT_MS = 15_000;

/** Names the step of a long path where an executor or a view failed, in the failure. */
async function atStep(index: number, event: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Error) error.message = `step ${index} (${event}): ${error.message}`;
    throw error;
  }
}

async function checkView<TWorld>(
  views: Record<string, ViewAssertion<TWorld>>,
  world: TWorld,
  step: ViewStep,
): Promise<void> {
  for (const state of step.states) await views[state]!(world, step);
}
