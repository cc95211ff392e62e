/** Time as the server sees it; tests inject a clock they move by hand instead of sleeping. */
export interface Clock {
  now(): Date;
}

export function systemClock(offsetMs = 0): Clock {
  return { now: () => new Date(Date.now() + offsetMs) };
}

/** The system clock with an offset that can grow at run time (`TEST_CLOCK_CONTROL`). */
export function adjustableClock(offsetMs = 0): Clock & { advance(ms: number): void } {
  let offset = offsetMs;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** A clock for tests: starts at `start` and moves only when told to. */
export function manualClock(start: Date | string = '2026-11-22T00:00:00Z'): Clock & {
  set(to: Date | string): void;
  advance(ms: number): void;
} {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (to) => {
      current = new Date(to).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
