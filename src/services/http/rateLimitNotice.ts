/**
 * A call the server refused under its per-client rate limit (429 `rate_limited`) is told to
 * the member once, wherever it was made: the HTTP client reports it here and the app shows
 * it (src/components/ui/RateLimitToasts.tsx), without the client knowing about texts.
 */
type Listener = () => void;

const listeners = new Set<Listener>();

export function onRateLimited(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function notifyRateLimited(): void {
  for (const listener of listeners) listener();
}

/** The server's answer to a call over its rate limit: 429 with code `rate_limited`. */
export function isRateLimitedAnswer(status: number | undefined, data: unknown): boolean {
  return (
    status === 429 &&
    typeof data === 'object' &&
    data !== null &&
    (data as { code?: unknown }).code === 'rate_limited'
  );
}
