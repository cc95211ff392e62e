import { DomainError } from '../errors';
import type { ThrottleStore, Window } from './throttleStore';

const MINUTE_MS = 60 * 1000;

/**
 * The numbers of docs/accounts.md. The account counter is keyed on what was submitted (the
 * email, normalised), never on whether an account exists, so an unknown email is refused
 * exactly like a known one.
 */
export interface LoginThrottlePolicy {
  /** Sign-in attempts one client address may make per `clientWindowMs` (0: unlimited). */
  attemptsPerClient: number;
  clientWindowMs: number;
  /** Failed attempts on one account, from every client together, per `accountWindowMs`. */
  failuresPerAccount: number;
  /**
   * The share of those one client address may contribute, per `accountWindowMs`: past it
   * that address alone is refused for that account, so locking it takes many addresses.
   */
  failuresPerAccountFromOneClient: number;
  accountWindowMs: number;
  /** Failed `unlocked` attempts (see LoginAttempt) on one account, per account window. */
  failuresWithUnlockLink: number;
  /** Called once per window, when the account's counter first passes its cap. */
  onLocked(identifier: string, until: Date): void;
}

/** NIST SP 800-63B §5.2.2: no more than 100 consecutive failed attempts on one account. */
export const DEFAULT_LOGIN_THROTTLE: Omit<LoginThrottlePolicy, 'onLocked'> = {
  attemptsPerClient: 30,
  clientWindowMs: 15 * MINUTE_MS,
  failuresPerAccount: 100,
  failuresPerAccountFromOneClient: 10,
  accountWindowMs: 60 * MINUTE_MS,
  failuresWithUnlockLink: 10,
};

export interface LoginAttempt {
  /** The submitted email, normalised (trimmed, lower case). */
  identifier: string;
  /** The client's address as the server sees it (TRUST_PROXY decides which hop). */
  client: string;
  /**
   * The attempt proves more than a password (the account's unlock link, or a signed-in
   * session): the account's lock is not in its way, and it has a smaller cap of its own.
   */
  unlocked?: boolean;
}

/** An admitted attempt, counted as failed until the password proves right. */
export interface Admission {
  succeeded(): Promise<void>;
}

function retryAfterSeconds(window: Window, now: Date): number {
  return Math.max(1, Math.ceil((window.resetsAt.getTime() - now.getTime()) / 1000));
}

const tooManyAttempts = (window: Window, now: Date) =>
  new DomainError(
    'too_many_attempts',
    'too_many_attempts',
    'too many sign-in attempts; try again later',
    { retryAfterSeconds: retryAfterSeconds(window, now) },
  );

const accountLocked = (window: Window, now: Date) =>
  new DomainError(
    'locked',
    'account_locked',
    'locked after repeated failures; an unlock link was mailed to the account address',
    { retryAfterSeconds: retryAfterSeconds(window, now) },
  );

export function loginThrottle(store: ThrottleStore, policy: LoginThrottlePolicy) {
  return {
    /**
     * Counts the attempt as a failure BEFORE the password is checked, in one atomic hit, so
     * that any number of parallel guesses gets at most the cap's worth of password checks.
     * Throws 429 over the client's limit or past the client's share of the account, and 423
     * over the account's cap (429 for the holder of an unlock link past its own, smaller
     * cap). The caller reports a right password with `succeeded()`, which takes the count
     * back.
     */
    async admit(attempt: LoginAttempt, now: Date): Promise<Admission> {
      if (policy.attemptsPerClient > 0) {
        const client = await store.hit(
          `client:${attempt.client}`,
          undefined,
          policy.clientWindowMs,
          now,
        );
        if (client.count > policy.attemptsPerClient) throw tooManyAttempts(client, now);
      }
      if (attempt.unlocked) {
        const key = `unlock:${attempt.identifier}`;
        const failures = await store.hit(key, attempt.identifier, policy.accountWindowMs, now);
        if (failures.count > policy.failuresWithUnlockLink) throw tooManyAttempts(failures, now);
        return { succeeded: () => store.release(key, now) };
      }
      // This address's share first: past it, its guesses never reach the account's counter.
      const shareKey = `share:${attempt.client}:${attempt.identifier}`;
      const share = await store.hit(shareKey, attempt.identifier, policy.accountWindowMs, now);
      if (share.count > policy.failuresPerAccountFromOneClient) throw tooManyAttempts(share, now);
      const key = `account:${attempt.identifier}`;
      const failures = await store.hit(key, attempt.identifier, policy.accountWindowMs, now);
      if (failures.count > policy.failuresPerAccount) {
        if (failures.count === policy.failuresPerAccount + 1) {
          policy.onLocked(attempt.identifier, failures.resetsAt);
        }
        throw accountLocked(failures, now);
      }
      return {
        succeeded: async () => {
          await store.release(shareKey, now);
          await store.release(key, now);
        },
      };
    },

    /** A password reset proves the owner: every counter and lock on the email goes. */
    liftLocks: (identifier: string) => store.clearIdentifier(identifier),
  };
}

export type LoginThrottle = ReturnType<typeof loginThrottle>;
