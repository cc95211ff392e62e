import pino, { type DestinationStream } from 'pino';

/** Lines are written in chunks of at least this many bytes, or when the flush timer runs. */
const BUFFERED_WRITE_BYTES = 4096;

export interface LogDestination {
  /** Pino's destination; undefined for pino's own default (each line handed on at once). */
  stream: DestinationStream | undefined;
  /** Writes whatever is buffered and waits until it is out (the app's close calls it). */
  flush(): Promise<void>;
}

/**
 * Where the application's log lines go: standard output.
 *
 * With `flushMs` 0 this is pino's default destination: asynchronous, but each line is handed
 * to libuv's thread pool as soon as no write is in flight, so when requests complete one per
 * event-loop turn (a server that is not saturated) every line is its own write and thread-pool
 * round trip, 9-13 µs of CPU per line. Production buffers instead: lines go out once 4 kB have
 * gathered (15-150 lines a write), and at least every `flushMs`, so on a quiet server a line
 * waits at most that long; 5-7 µs per line (docs/benchmarks.md, "mem2").
 *
 * No line is lost on the ways a server stops: the app's close (SIGTERM, SIGINT) waits for
 * the buffer to be written; `process.exit`, an uncaught error (Node emits `exit` for both)
 * and an emptied event loop write the rest synchronously, through the exit hook that pino
 * registers for every asynchronous destination (test/process/logDestination.test.ts). Only a
 * SIGKILL or a crash of Node itself loses what was still buffered: at most `flushMs` of lines.
 */
export function logDestination(flushMs: number): LogDestination {
  if (flushMs === 0) return { stream: undefined, flush: async () => undefined };
  const stream = pino.destination({
    dest: 1,
    sync: false,
    minLength: BUFFERED_WRITE_BYTES,
    periodicFlush: flushMs,
  });
  return {
    stream,
    flush: () =>
      new Promise<void>((resolve) =>
        // A failed write (a closed pipe) has been reported on the stream already.
        stream.flush(() => resolve()),
      ),
  };
}
