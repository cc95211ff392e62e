import type { AxiosError, AxiosInstance } from 'axios';
import { nextTask } from '../nextTask';

/**
 * The product API's client, loaded with the first call that needs it. A member page carries
 * its first reads (server/routes/memberPage.ts), so its first render makes no call: importing
 * the client statically put axios (20 KB brotli) among the downloads the first render waits
 * for, which Lighthouse's simulation shares the bandwidth with (issue 6, docs/endingnote.md).
 */
export async function loadHttp(): Promise<AxiosInstance> {
  if (loaded) return loaded;
  loading ??= nextTask()
    .then(() => import('./index'))
    .then(({ http }) => (loaded = http));
  const http = await loading;
  await nextTask();
  return http;
}

/**
 * The first calls (the frame's checks, all made in one commit of the first render) wait for
 * the client in tasks of their own: its code is asked for in a task that does nothing else,
 * and each call then goes out in its own, not all of them in the task that evaluated axios
 * (docs/app-shell.md, "Start-up work").
 */
let loading: Promise<AxiosInstance> | undefined;
let loaded: AxiosInstance | undefined;

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
