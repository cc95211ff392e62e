import { z } from 'zod';
import type { Timestamp } from './common';

/**
 * One HTTP endpoint of the API as both sides see it: the server registers and validates it
 * (server/http/contractRoutes.ts), the browser calls it (src/services/http/callEndpoint.ts)
 * and GET /v1/openapi.json documents it. Requests travel in snake_case, answers in
 * camelCase (docs/architecture.md "Wire conventions"); the schemas say each exactly as it is
 * on the wire.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call it: `member` needs a bearer token (401 without one), `optional` reads the
 * token when there is one (visitors may read public pages), `public` never reads one.
 */
export type Caller = 'member' | 'optional' | 'public';

/** An answer's body by status (`noBody` for 204 or a redirect, `fileBody` for a download). */
export type Responses = Record<number, z.ZodType>;

export interface Endpoint {
  /** Its name in its area's map (`named`): the API document's stable `operationId`. */
  operationId?: string;
  method: Method;
  /** Fastify's pattern: `/v1/endingnote/:userId`. */
  path: string;
  /** One line for the API document. */
  summary: string;
  /** The capability it belongs to; the API document groups by it. */
  tag: string;
  caller: Caller;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body's media types when not only JSON (a form post of the session layer). */
  consumes?: readonly string[];
  /** Every status the endpoint answers on purpose; 401, 422, 429 and 5xx are added below. */
  responses: Responses;
  /** Answers 429 when a rate-limit group is spent (server/http/rateLimits.ts). */
  rateLimited?: boolean;
  /**
   * A sensitive change: 403 without the fresh proof, 422 for a wrong current password, 423
   * and 429 when the sign-in throttle holds (docs/accounts.md, "Fresh proof").
   */
  freshProof?: boolean;
}

/** The one error shape of every 4xx and 5xx answer (server/http/errors.ts). */
export const errorBody = z
  .object({
    detail: z.string(),
    code: z.string(),
    errors: z.array(z.object({ field: z.string(), code: z.string() })).optional(),
  })
  .meta({
    id: 'Error',
    description: 'Every error answer: a stable `code`, a `detail` for people, field problems.',
    examples: [
      {
        detail: 'invalid input',
        code: 'validation_failed',
        errors: [{ field: 'last_name', code: 'too_big' }],
      },
    ],
  });

export type ErrorBody = z.infer<typeof errorBody>;

/**
 * The answer of a status that carries no body: 204, a redirect. Typed as nothing, so that a
 * handler sends it with `reply.send()`; documented as null (the cast: zod has no void schema
 * that documents as null).
 */
export const noBody = z.null().meta({ description: 'No body' }) as unknown as z.ZodType<void>;

const MEDIA_TYPES = new WeakMap<z.ZodType, readonly string[]>();

/**
 * An answer that is a file or a page rather than a JSON value, in the media types it may
 * have (the API document names each; a JSON one among them is chosen by `Accept`).
 */
export function fileBody(description: string, mediaTypes: readonly [string, ...string[]]) {
  const schema = z.unknown().meta({ description });
  MEDIA_TYPES.set(schema, mediaTypes);
  return schema;
}

/** The media types of a `fileBody` answer; undefined for a JSON answer. */
export const mediaTypesOf = (schema: z.ZodType): readonly string[] | undefined =>
  MEDIA_TYPES.get(schema);

/**
 * An area's endpoints, each given its key as its `operationId`, so that a partner's generated
 * client has the names both sides of the contract use.
 */
export function named<const M extends Record<string, Endpoint>>(
  endpoints: M,
): { [K in keyof M]: M[K] & { operationId: K } } {
  return Object.fromEntries(
    Object.entries(endpoints).map(([name, endpoint]) => [name, { ...endpoint, operationId: name }]),
  ) as { [K in keyof M]: M[K] & { operationId: K } };
}

/**
 * Declares an endpoint and adds the statuses any such endpoint may answer: 401 for a member's
 * call, 422 always, 400/413/415 for a method that may carry a body, 429 when rate limited, the fresh proof's answers, 500 and
 * 503 always (faults).
 */
export function endpoint<const D extends Endpoint>(definition: D): D {
  const responses: Responses = { ...definition.responses };
  if (definition.caller === 'member') responses[401] ??= errorBody;
  // Text the database cannot keep is refused in one place, for every route (decision 132).
  responses[422] ??= errorBody;
  // The framework's refusals of a body, malformed, too large or of a type no route reads,
  // answer any method that may carry one.
  if (definition.method !== 'GET') {
    responses[400] ??= errorBody;
    responses[413] ??= errorBody;
    responses[415] ??= errorBody;
  }
  if (definition.rateLimited || definition.freshProof) responses[429] ??= errorBody;
  if (definition.freshProof) {
    responses[403] ??= errorBody;
    responses[423] ??= errorBody;
  }
  responses[500] ??= errorBody;
  responses[503] ??= errorBody;
  return { ...definition, responses };
}

/** The answer's body of the endpoint's first 2xx status, as the client reads it. */
export type AnswerOf<E extends Endpoint> = E['responses'] extends infer R
  ? R extends Record<number, unknown>
    ? SuccessBody<R>
    : never
  : never;

/**
 * A wire value as the server builds it: a Date may stand where the wire carries a timestamp
 * (the answer is serialised as JSON before it is checked against the schema).
 */
export type Served<T> = T extends Timestamp
  ? string | Date
  : T extends readonly (infer Item)[]
    ? Served<Item>[]
    : T extends object
      ? { [K in keyof T]: Served<T[K]> }
      : T;

/** A schema's value as the server builds it (see Served). */
export type ServedOf<S extends z.ZodType> = Served<z.output<S>>;

type SuccessStatus = 200 | 201 | 202 | 204;
type SuccessBody<R extends Record<number, unknown>> = {
  [S in SuccessStatus]: S extends keyof R
    ? R[S] extends z.ZodType
      ? z.output<R[S]>
      : void
    : never;
}[SuccessStatus];

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/**
 * A wire request as the browser writes it: the HTTP client turns its camelCase keys into the
 * wire's snake_case (src/services/http/casing.ts).
 */
export type CamelKeys<T> = T extends readonly (infer Item)[]
  ? CamelKeys<Item>[]
  : T extends Date | Blob | FormData | URLSearchParams
    ? T
    : T extends object
      ? { [K in keyof T as K extends string ? CamelCase<K> : K]: CamelKeys<T[K]> }
      : T;

type InputOf<S> = S extends z.ZodType ? CamelKeys<z.input<S>> : undefined;

/** What the browser passes to call the endpoint. */
export interface CallOf<E extends Endpoint> {
  params: InputOf<E['params']>;
  query: InputOf<E['query']>;
  body: InputOf<E['body']>;
}

/** Fills a path's `:name` parts, each encoded. */
export function pathOf(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    const value = params[name] ?? params[camelCased(name)];
    if (value === undefined) throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}

function camelCased(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_match, next: string) => next.toUpperCase());
}
