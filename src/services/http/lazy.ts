import type { AxiosError, AxiosInstance } from 'axios';

/**
 * The product API's client, loaded with the first call that needs it. A member page carries
 * its first reads (server/routes/memberPage.ts), so its first render makes no call: importing
 * the client statically put axios (20 KB brotli) among the downloads the first render waits
 * for, which Lighthouse's simulation shares the bandwidth with (issue 6, docs/endingnote.md).
 */
export async function loadHttp(): Promise<AxiosInstance> {
  return (await import('./index')).http;
}

/**
 * `axios.isAxiosError` without loading axios: the same test, the flag axios sets on the
 * errors it makes.
 */
export function isHttpError(error: unknown): error is AxiosError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { isAxiosError?: unknown }).isAxiosError === true
  );
}
