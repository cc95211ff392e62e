import type { createBrowserInspector } from '@statelyai/inspect';
import type { InspectionEvent, Observer } from 'xstate';

type Inspect = Observer<InspectionEvent>;
type InspectorOptions = NonNullable<Parameters<typeof createBrowserInspector>[0]>;

export const MASKED = '[masked]';

/** Credentials, wherever they sit: context, events, actor inputs and outputs, headers. */
const SECRET_KEYS = /token|password|secret|authorization|cookie|assertion|credential|csrf/i;
/** Whole HTTP messages and what members write (ending note, letters, reports): never shown. */
const CONTENT_KEYS =
  /^(note|notes|content|contents|body|text|message_body|memo|data|headers|config|request|response)$/i;
/** A bearer header or a JWT that sits under an innocent name. */
const SECRET_VALUE = /^Bearer\s|^[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}$/;
const DEPTH_LIMIT = 10;

function masked(value: unknown, seen: WeakSet<object>, depth: number): unknown {
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? MASKED : value;
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (depth > DEPTH_LIMIT) return '[depth]';
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) {
    const items = value.map((inner) => masked(inner, seen, depth + 1));
    seen.delete(value);
    return items;
  }
  const plain: object =
    value instanceof Error
      ? { ...value, name: value.name, message: value.message }
      : 'toJSON' in value && typeof value.toJSON === 'function'
        ? (value.toJSON() as object)
        : value;
  if (typeof plain !== 'object' || plain === null) return masked(plain, seen, depth + 1);
  // A form edit names its field apart from its value: `{ field: 'password', value }`.
  const namesSecret = 'field' in plain && SECRET_KEYS.test(String(plain.field));
  const result = Object.fromEntries(
    Object.entries(plain).map(([key, inner]) => [
      key,
      SECRET_KEYS.test(key) || CONTENT_KEYS.test(key) || (namesSecret && key === 'value')
        ? MASKED
        : masked(inner, seen, depth + 1),
    ]),
  );
  // Only an ancestor makes a cycle: an object met twice side by side is shown twice.
  seen.delete(value);
  return result;
}

/**
 * What the inspector is given of an inspection event: plain JSON with every credential and
 * every piece of member content replaced by `[masked]`, wherever it sits in the event.
 */
export function maskSecrets<T>(value: T): T {
  return masked(value, new WeakSet(), 0) as T;
}

/** The inspector's options: everything it sends passes through the masking. */
export const maskedInspectorOptions: InspectorOptions = {
  serialize: (event) => maskSecrets(event),
};

let inspect: Promise<Inspect | undefined> | undefined;
let started: Inspect | undefined;

/**
 * In development, opening the app with `?inspect` connects every machine to the Stately
 * visualiser (@statelyai/inspect, loaded only then). Called once before the first render.
 */
export function devInspector(): Promise<Inspect | undefined> {
  if (!import.meta.env.DEV || !new URLSearchParams(window.location.search).has('inspect')) {
    return Promise.resolve(undefined);
  }
  inspect ??= import('@statelyai/inspect').then(({ createBrowserInspector }) => {
    started = createBrowserInspector(maskedInspectorOptions).inspect;
    return started;
  });
  return inspect;
}

/**
 * The option every actor the app creates is given (`createActor`, `useActorRef`,
 * `useMachine`), so that each, with the actors it invokes, appears in the inspector.
 */
export function inspectOption(): { inspect?: Inspect } {
  return started ? { inspect: started } : {};
}
