/** One figure of `npm run bench`. */
export interface BenchRow {
  /** What is measured, e.g. "GET /healthz (pglite)". */
  name: string;
  /** The figure: a number in `unit`, or undefined when it could not be measured (see note). */
  value: number | undefined;
  unit: 'bytes' | 'ms' | 'req/s' | '%' | 'score' | 'ratio' | 'count';
  /** The figure's target, e.g. "<= 150 KB"; `met` says whether this run reached it. */
  target?: string;
  met?: boolean;
  note?: string;
}

export interface BenchOptions {
  /** PostgreSQL server to bench on as well (a fresh database is created on it and dropped). */
  databaseUrl: string | undefined;
  /** Seconds of load per autocannon measurement (10 by default). */
  durationSeconds: number;
  log(line: string): void;
}

/** A group of figures: a module listed in bench/modules.ts. */
export interface BenchModule {
  title: string;
  run(options: BenchOptions): Promise<BenchRow[]>;
}
