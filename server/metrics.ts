import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The Prometheus metrics of one application. Each application has its own registry (tests
 * build several in one process); code that counts something takes it from the context.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
  jobRuns: Counter<'job'>;
  jobFailures: Counter<'job'>;
  mailsSent: Counter<'kind'>;
  /** Mails given up on after a day of retries: each needs the operator's attention. */
  mailsFailed: Counter<'kind'>;
  /** Requests refused by a rate limit; `limit` names which one. */
  rateLimitRefusals: Counter<'limit'>;
  /**
   * Registers a gauge read at each scrape (outbox backlog, database pool); undefined leaves
   * it as it was.
   */
  gauge(name: string, help: string, read: () => Promise<number | undefined> | number): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'shinobu_' });
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Counter<L>({ name, help, labelNames, registers: [registry] });
  return {
    registry,
    httpRequests: counter('shinobu_http_requests_total', 'HTTP requests answered', [
      'method',
      'route',
      'status',
    ]),
    httpDuration: new Histogram({
      name: 'shinobu_http_request_duration_seconds',
      help: 'Time to answer an HTTP request',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    jobRuns: counter('shinobu_job_runs_total', 'Passes of a scheduled job', ['job']),
    jobFailures: counter('shinobu_job_failures_total', 'Passes of a scheduled job that failed', [
      'job',
    ]),
    mailsSent: counter('shinobu_mails_sent_total', 'Mails handed to the mail relay', ['kind']),
    mailsFailed: counter(
      'shinobu_mails_failed_total',
      'Mails given up on after retrying for a day',
      ['kind'],
    ),
    rateLimitRefusals: counter(
      'shinobu_rate_limit_refusals_total',
      'Requests refused by a rate limit',
      ['limit'],
    ),
    gauge(name, help, read) {
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          const value = await read();
          if (value !== undefined) this.set(value);
        },
      });
    },
  };
}
