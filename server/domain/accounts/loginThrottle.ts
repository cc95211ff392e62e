import { ApiError } from '../../http/errors';
import type { ThrottleStore, Window } from './throttleStore';

const MINUTE_MS = 60 * 1000;

/**
 * The numbers of docs/accounts.md. Every counter is keyed on what was submitted (the email as
 * typed, normalised) and the client address, never on whether an account exists, so an
 * unknown email is throttled and locked exactly like a known one.
 */
export interface LoginThrottlePolicy {
  /** Sign-in attempts one client may make per window (0: unlimited, for benchmarks). */
  attemptsPerClient: number;
  /** Failed attempts on one email from all clients together per window. */
  failuresPerIdentifier: number;
  /** Failed attempts on one email from one client that lock that pair. */
  failuresBeforeLock: number;
  windowMs: number;
  lockMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottlePolicy = {
  attemptsPerClient: 30,
  failuresPerIdentifier: 20,
  failuresBeforeLock: 5,
  windowMs: 15 * MINUTE_MS,
  lockMs: 15 * MINUTE_MS,
};

export interface LoginAttempt {
  /** The submitted email, normalised (trimmed, lower case). */
  identifier: string;
  /** The client's address as the server sees it. */
  client: string;
}

const keys = ({ identifier, client }: LoginAttempt) => ({
  client: `client:${client}`,
  identifier: `identifier:${identifier}`,
  failures: `failures:${identifier}:${client}`,
  lock: `lock:${identifier}:${client}`,
});

function retryAfterSeconds(window: Window, now: Date): string {
  return String(Math.max(1, Math.ceil((window.resetsAt.getTime() - now.getTime()) / 1000)));
}

const tooManyAttempts = (window: Window, now: Date) =>
  new ApiError(429, 'too_many_attempts', 'too many sign-in attempts; try again later', undefined, {
    'retry-after': retryAfterSeconds(window, now),
  });

export function loginThrottle(store: ThrottleStore, policy: LoginThrottlePolicy) {
  return {
    /** Throws 423 while the pair is locked and 429 over a limit; counts the attempt. */
    async admit(attempt: LoginAttempt, now: Date): Promise<void> {
      const key = keys(attempt);
      const lock = await store.peek(key.lock, now);
      if (lock) {
        throw new ApiError(423, 'account_locked', 'locked after repeated failures', undefined, {
          'retry-after': retryAfterSeconds(lock, now),
        });
      }
      const identifierFailures = await store.peek(key.identifier, now);
      if (identifierFailures && identifierFailures.count >= policy.failuresPerIdentifier) {
        throw tooManyAttempts(identifierFailures, now);
      }
      if (policy.attemptsPerClient > 0) {
        const clientAttempts = await store.hit(key.client, undefined, policy.windowMs, now);
        if (clientAttempts.count > policy.attemptsPerClient) {
          throw tooManyAttempts(clientAttempts, now);
        }
      }
    },

    async recordFailure(attempt: LoginAttempt, now: Date): Promise<void> {
      const key = keys(attempt);
      await store.hit(key.identifier, attempt.identifier, policy.windowMs, now);
      const failures = await store.hit(key.failures, attempt.identifier, policy.windowMs, now);
      if (failures.count >= policy.failuresBeforeLock) {
        await store.hit(key.lock, attempt.identifier, policy.lockMs, now);
        await store.clear(key.failures);
      }
    },

    async recordSuccess(attempt: LoginAttempt): Promise<void> {
      await store.clear(keys(attempt).failures);
    },

    /** A password reset proves the owner: every counter and lock on the email goes. */
    liftLocks: (identifier: string) => store.clearIdentifier(identifier),
  };
}

export type LoginThrottle = ReturnType<typeof loginThrottle>;
