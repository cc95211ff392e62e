import type { InspectionEvent, Observer } from 'xstate';

type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

const TOKEN_KEYS = /token|password|secret/i;

function mask(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mask);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        TOKEN_KEYS.test(key) ? '[masked]' : mask(inner),
      ]),
    );
  }
  return value;
}

let inspect: Promise<Inspect | undefined> | undefined;

/**
 * In development, opening the app with `?inspect` connects every machine to the Stately
 * visualiser (@statelyai/inspect, loaded only then). Tokens and passwords are masked.
 */
export function devInspector(): Promise<Inspect | undefined> {
  if (!import.meta.env.DEV || !new URLSearchParams(window.location.search).has('inspect')) {
    return Promise.resolve(undefined);
  }
  inspect ??= import('@statelyai/inspect').then(({ createBrowserInspector }) => {
    const inspector = createBrowserInspector({
      sanitizeContext: (context) => mask(context) as typeof context,
      sanitizeEvent: (event) => mask(event) as typeof event,
    });
    return inspector.inspect;
  });
  return inspect;
}
