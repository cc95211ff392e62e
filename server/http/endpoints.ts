import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySerializerCompiler,
} from 'fastify';
import fastJson from 'fast-json-stringify';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { Endpoint, Served } from '../../contract/endpoint';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract's endpoint the route serves (contract). */
    endpoint?: Endpoint;
  }
}

const SECURITY = {
  member: [{ bearer: [] }],
  optional: [{ bearer: [] }, {}],
  public: [],
} as const;

/**
 * Fastify's route options for a contract's endpoint: its method, URL, request schemas (which
 * validate the request), response schemas (which serialise the answer: a field the contract
 * does not name never leaves the server) and what the API document says of it.
 */
type Present<Key extends string, Schema> = Schema extends z.ZodType ? Record<Key, Schema> : unknown;

type ServedResponses<R> = {
  [Status in keyof R]: R[Status] extends z.ZodType ? z.ZodType<Served<z.output<R[Status]>>> : never;
};

/** The route's schema keys as Fastify's zod type provider reads them, for the handler's types. */
type RouteSchema<E extends Endpoint> = {
  operationId?: string;
  summary: string;
  tags: string[];
  security: Record<string, string[]>[];
  response: ServedResponses<E['responses']>;
} & Present<'params', E['params']> &
  Present<'querystring', E['query']> &
  Present<'body', E['body']>;

export function endpointRoute<const E extends Endpoint>(endpoint: E) {
  const schema = {
    ...(endpoint.operationId ? { operationId: endpoint.operationId } : {}),
    summary: endpoint.summary,
    tags: [endpoint.tag],
    security: [...SECURITY[endpoint.caller]],
    // Absent, not undefined: Fastify warns of a schema key that holds nothing.
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
    ...(endpoint.consumes ? { consumes: [...endpoint.consumes] } : {}),
    response: endpoint.responses,
  } as RouteSchema<E>;
  return {
    method: endpoint.method,
    url: endpoint.path,
    config: { endpoint },
    schema,
  };
}

/**
 * The endpoint's route validating its body with the server's own rules of the same shape
 * (its clock's today, its breached-password list); the API document shows them.
 */
export function withServerBody<const E extends Endpoint>(endpoint: E, body: E['body']) {
  const route = endpointRoute(endpoint);
  return { ...route, schema: { ...route.schema, body } };
}

/**
 * A value as JSON carries it (each `toJSON` applied: dates become ISO strings), without the
 * text round trip, for the contract's schema to read. What holds nothing to convert is
 * returned as it is, not copied.
 */
export function asWire(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const { toJSON } = value as { toJSON?: unknown };
  if (typeof toJSON === 'function') return asWire(toJSON.call(value));
  if (Array.isArray(value)) {
    let wire: unknown[] | undefined;
    value.forEach((item, index) => {
      const converted = asWire(item);
      if (converted !== item) (wire ??= [...value])[index] = converted;
    });
    return wire ?? value;
  }
  let wire: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    const converted = asWire(field);
    if (converted !== field) (wire ??= { ...value })[key] = converted;
  }
  return wire ?? value;
}

/**
 * The answer's JSON Schema as the compiled serializer reads it: inlined (no registry ids, so
 * the server render's own copy of the contract cannot clash with the server's), with
 * `additionalProperties: false` dropped — the serializer writes only the named fields anyway,
 * and a closed object would make it refuse a union's branch for a row's extra columns.
 */
export function serializerSchema(schema: z.ZodType): object {
  const json = z.toJSONSchema(schema, {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-07',
    metadata: z.registry(),
  });
  return withOpenObjects(json) as object;
}

function withOpenObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withOpenObjects);
  if (node === null || typeof node !== 'object') return node;
  const open: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    open[key] = withOpenObjects(value);
  }
  return open;
}

/**
 * Answers are written by a serializer compiled from their response schema
 * (fast-json-stringify): only the fields the contract names leave the server, dates as ISO
 * strings. It does not validate; given `drifts` (the API suite), every answer is also parsed
 * with the contract's schema and what the compiled serializer wrote must equal what the
 * schema keeps, so a serializer that drops or bends a field fails the suite.
 */
export function compiledAnswerSerializer(
  drifts?: ContractDrift[],
): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url, httpStatus }) => {
    const write = compiledWriter(schema);
    if (!drifts) return (data) => write(data ?? null);
    return (data) => {
      const written = write(data ?? null);
      const route = `${method} ${url}`;
      const status = Number(httpStatus);
      const kept = schema.safeParse(asWire(data ?? null));
      if (!kept.success) {
        drifts.push({ route, status, problem: z.prettifyError(kept.error) });
      } else if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(JSON.stringify(kept.data)))) {
        drifts.push({
          route,
          status,
          problem: `the serializer wrote ${written}; the contract keeps ${JSON.stringify(kept.data)}`,
        });
      }
      return written;
    };
  };
}

/**
 * Most routes answer their errors with the same few contract schemas: each schema is compiled
 * once per process rather than once per route and status, which made compiling a large part
 * of a start's work.
 */
const compiledWriters = new WeakMap<z.ZodType, (data: unknown) => string>();

function compiledWriter(schema: z.ZodType): (data: unknown) => string {
  let write = compiledWriters.get(schema);
  if (!write) {
    write = fastJson(serializerSchema(schema));
    compiledWriters.set(schema, write);
  }
  return write;
}

/** One answer that does not keep to the contract. */
export interface ContractDrift {
  route: string;
  status: number;
  problem: string;
}

/**
 * The API suite's check of every answer against its endpoint (test/support/testApp.ts): the
 * status must be one the contract names and a JSON body must parse with its schema.
 */
export function checkAnswersAgainstContract(app: FastifyInstance, drifts: ContractDrift[]): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const endpoint = request.routeOptions.config.endpoint;
    if (!endpoint) return payload;
    const route = `${endpoint.method} ${endpoint.path}`;
    const status = reply.statusCode;
    if (!(status in endpoint.responses)) {
      // 304 answers a conditional GET of any endpoint that sends an ETag (server/http/versionedAnswer.ts).
      if (status !== 304) drifts.push({ route, status, problem: 'status not in the contract' });
      return payload;
    }
    const schema = endpoint.responses[status];
    const type = String(reply.getHeader('content-type') ?? '');
    if (!schema || !type.includes('json') || typeof payload !== 'string' || !payload) {
      return payload;
    }
    const parsed = schema.safeParse(JSON.parse(payload));
    if (!parsed.success) {
      drifts.push({ route, status, problem: z.prettifyError(parsed.error) });
    }
    return payload;
  });
}
