import { createActor } from 'xstate';
import { inspectOption } from '../clientState/inspector';
import { browserAuthSessionMachine } from './browserSession';
import type { AuthSessionActor } from './liveSession';

export { connectUserSync } from './browserSession';
export { browserSessionApi } from './owedSignOut';
export { httpSessionOf, whenSession } from './liveSession';

/**
 * The session's statecharts (authSession, tokenRefresh) with the session layer's calls, sign-in
 * included: a chunk of its own, which the SessionProvider loads after the first render (a
 * member's page asks for it at start, `main.tsx`), so that a visitor's page does not wait for it.
 */
export function startAuthSession(): AuthSessionActor {
  return createActor(browserAuthSessionMachine(), inspectOption()).start();
}
