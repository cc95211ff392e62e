import { test, type Page } from '@playwright/test';
import type { AnyEventObject, AnyStateMachine } from 'xstate';
import {
  leafKeysOf,
  transitionCoveringPaths,
  withRecordedActors,
  type PathSpec,
} from '../../test/model/modelPaths';

/** One step of a generated path: the event and the leaf states the model predicts after it. */
export interface FlowStep {
  event: AnyEventObject;
  states: string[];
}

export interface FlowPath {
  title: string;
  initial: string[];
  steps: FlowStep[];
}

/** Does one event in the browser, as a gesture or a server outcome. */
export type BrowserExecutor = (page: Page, event: AnyEventObject) => Promise<void>;

/** What the member sees in one leaf state; `step` is undefined for the initial state. */
export type BrowserView = (
  page: Page,
  step: FlowStep | undefined,
  path: FlowStep[],
) => Promise<void>;

/**
 * The generated paths of a flow (the model test's own, from `xstate/graph`) that `choose`
 * keeps: the browser replays a short set of them, each a few seconds long.
 */
export function chosenPaths<TMachine extends AnyStateMachine>(
  machine: TMachine,
  spec: PathSpec<TMachine>,
  choose: (steps: FlowStep[]) => boolean,
): FlowPath[] {
  const recorded = withRecordedActors(machine);
  return transitionCoveringPaths(recorded, spec)
    .map((path) => {
      const steps = path.steps
        .filter((step) => step.event.type !== 'xstate.init')
        .map((step) => ({ event: step.event as AnyEventObject, states: leafKeysOf(step.state) }));
      return {
        title: steps.map((step) => step.event.type).join(' → '),
        initial: leafKeysOf(path.steps[0]!.state),
        steps,
      };
    })
    .filter((path) => choose(path.steps));
}

/** Replays one path in the page: every event by its executor, every state by its view. */
export async function replayInBrowser(
  page: Page,
  path: FlowPath,
  executors: Record<string, BrowserExecutor>,
  views: Record<string, BrowserView>,
): Promise<void> {
  for (const state of path.initial) await views[state]!(page, undefined, []);
  const done: FlowStep[] = [];
  for (const step of path.steps) {
    await test.step(step.event.type, async () => {
      await executors[step.event.type]!(page, step.event);
      done.push(step);
      for (const state of step.states) await views[state]!(page, step, done);
    });
  }
}
