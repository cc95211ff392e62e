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

/** A GET the product API refused, with its status. */
export class ApiStatusError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
  ) {
    super(`GET ${path} answered ${status}`);
  }
}

/**
 * A GET of the product API through the client loaded with it (bearer token when a member is
 * signed in, none for a visitor; one refresh on a 401; camelCase answers): for the parts of
 * the frame that must not load axios with the entry route. A refused call throws an
 * ApiStatusError with its status.
 */
export async function lazyGet(path: string): Promise<unknown> {
  const http = await loadHttp();
  try {
    return (await http.get<unknown>(path)).data;
  } catch (error) {
    if (isHttpError(error) && error.response) throw new ApiStatusError(error.response.status, path);
    throw error;
  }
}
