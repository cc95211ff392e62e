/**
 * A closed-loop HTTP load generator on Node's own client (llhttp, the C parser), for benches
 * whose answers are large: autocannon's pure-JS parser appends every body to a string, which
 * for a 27-156 kB answer costs the generator more CPU than the server spends making and
 * sending it, on the same two cores. Here a body is read to its
 * end as buffers and only its bytes are counted.
 *
 * Like autocannon: `connections` keep-alive connections, each with one request in flight and
 * the next sent when the previous answer has fully arrived; the latency of a request is from
 * its send to its last body byte. Every latency is kept (no histogram buckets), so the
 * percentiles are exact.
 */
import http from 'node:http';

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** A request with no complete answer by then counts as a timeout (autocannon's default). */
  timeoutMs?: number;
}

export interface LoadResult {
  /** Complete answers, of any status. */
  requests: number;
  requestsPerSecond: number;
  /** Milliseconds, over the complete answers. */
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Body bytes read (after any content encoding, as sent). */
  bodyBytes: number;
}

/** The nearest-rank percentile of sorted values. */
function percentile(sorted: Float64Array, share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

class TimeoutError extends Error {}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: options.connections,
    maxFreeSockets: options.connections,
  });
  const timeoutMs = options.timeoutMs ?? 10_000;
  let latencies = new Float64Array(1 << 16);
  let requests = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let bodyBytes = 0;

  const once = () =>
    new Promise<void>((resolve) => {
      const sentAt = performance.now();
      const request = http.get(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          headers: options.headers,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          response.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
          response.on('end', () => {
            if (requests === latencies.length) {
              const grown = new Float64Array(latencies.length * 2);
              grown.set(latencies);
              latencies = grown;
            }
            latencies[requests] = performance.now() - sentAt;
            requests += 1;
            if (status < 200 || status > 299) non2xx += 1;
            resolve();
          });
          response.on('error', () => {
            errors += 1;
            resolve();
          });
        },
      );
      request.setTimeout(timeoutMs, () => request.destroy(new TimeoutError()));
      request.on('error', (error) => {
        if (error instanceof TimeoutError) timeouts += 1;
        else errors += 1;
        resolve();
      });
    });

  const startedAt = performance.now();
  const endsAt = startedAt + options.durationSeconds * 1000;
  const connection = async () => {
    while (performance.now() < endsAt) await once();
  };
  await Promise.all(Array.from({ length: options.connections }, connection));
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  agent.destroy();

  const sorted = latencies.subarray(0, requests).sort();
  return {
    requests,
    requestsPerSecond: requests / elapsedSeconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    non2xx,
    errors,
    timeouts,
    bodyBytes,
  };
}
