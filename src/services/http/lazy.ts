import type { AxiosError, AxiosInstance } from 'axios';

/**
 * The product API's client, loaded with the first call that needs it: axios stays out of the
 * entry route, which a visitor's first paint waits for.
 */
export async function loadHttp(): Promise<AxiosInstance> {
  loading ??= import('./index').then(({ http }) => http);
  return loading;
}

let loading: Promise<AxiosInstance> | undefined;

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
