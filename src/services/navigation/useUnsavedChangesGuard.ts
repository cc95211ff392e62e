import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useBlocker, type Blocker, type Location } from 'react-router';
import {
  unsavedChangesGuardMachine,
  type NavigationTarget,
} from '../../machines/unsavedChangesGuard';
import { inspectOption } from '../clientState/inspector';

export interface UnsavedChangesGuardOptions {
  /** Told when the unsaved-warning dialog opens and closes (the machine's emitted events). */
  onWarningOpen?: (target: NavigationTarget) => void;
  onWarningClose?: () => void;
  /** How a hash URL is loaded as a whole page; the browser's own navigation by default. */
  loadPage?: (href: string) => void;
}

export interface UnsavedChangesGuard {
  warningOpen: boolean;
  /** Leave anyway: what was typed is dropped. */
  confirm(): void;
  /** Stay on the page: what was typed stays as it is. */
  cancel(): void;
}

const hrefOf = (location: Location) => `${location.pathname}${location.search}${location.hash}`;

/** Only leaving the page counts: a hash jump within the same page keeps the form on screen. */
const leavesPage = (current: Location, next: Location) =>
  current.pathname !== next.pathname || current.search !== next.search;

/**
 * The guard's effects on the world: the router's current blocker, the screen's listeners and
 * the browser's page load. Kept outside React's render data because the machine's actions
 * run on events, after render, and must see the latest blocker.
 */
class GuardEffects {
  private blocker: Blocker | undefined;
  private options: UnsavedChangesGuardOptions = {};
  /** Set while a confirmed full page load is under way, so the tab prompt does not ask again. */
  leavingPage = false;

  update(blocker: Blocker, options: UnsavedChangesGuardOptions): void {
    this.blocker = blocker;
    this.options = options;
  }

  warningOpened(target: NavigationTarget): void {
    this.options.onWarningOpen?.(target);
  }

  warningClosed(): void {
    this.options.onWarningClose?.();
  }

  readonly actions = {
    proceedNavigation: () => this.blocker?.proceed?.(),
    loadTargetFully: ({ context }: { context: { target: NavigationTarget | null } }) => {
      this.leavingPage = true;
      this.blocker?.reset?.();
      const load = this.options.loadPage ?? ((href: string) => window.location.assign(href));
      load(context.target!.href);
    },
    stayOnPage: () => this.blocker?.reset?.(),
  };
}

/**
 * The unsaved-changes guard for any screen with a form (needs the data router). In-app
 * navigation is held by react-router's blocker and the machine decides; closing or reloading
 * the tab cannot be held by the router, so a `beforeunload` handler asks for the browser's
 * own prompt while changes are unsaved.
 */
export function useUnsavedChangesGuard(
  hasUnsavedChanges: boolean,
  options: UnsavedChangesGuardOptions = {},
): UnsavedChangesGuard {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      hasUnsavedChanges && leavesPage(currentLocation, nextLocation),
  );
  const [effects] = useState(() => new GuardEffects());
  useEffect(() => effects.update(blocker, options));
  const actor = useActorRef(
    unsavedChangesGuardMachine.provide({ actions: effects.actions }),
    inspectOption(),
  );

  useEffect(() => {
    actor.send({ type: hasUnsavedChanges ? 'FORM.CHANGED' : 'FORM.SAVED' });
  }, [actor, hasUnsavedChanges]);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    actor.send({
      type: 'NAVIGATE',
      target: { href: hrefOf(blocker.location), isHashUrl: blocker.location.hash !== '' },
    });
  }, [actor, blocker.state, blocker.location]);

  useEffect(() => {
    const opened = actor.on('unsavedWarning.open', (event) => effects.warningOpened(event.target));
    const closed = actor.on('unsavedWarning.close', () => effects.warningClosed());
    return () => {
      opened.unsubscribe();
      closed.unsubscribe();
    };
  }, [actor, effects]);

  useEffect(() => {
    if (!hasUnsavedChanges) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (effects.leavingPage) return;
      event.preventDefault();
      // Older browsers show their prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [effects, hasUnsavedChanges]);

  return {
    warningOpen: useSelector(actor, (snapshot) => snapshot.matches('warning')),
    confirm: () => actor.send({ type: 'CONFIRM' }),
    cancel: () => actor.send({ type: 'CANCEL' }),
  };
}
