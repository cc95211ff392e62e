import fc from 'fast-check';
import { z } from 'zod';
import type { RouteEntry } from '../../server/app';

/** A JSON Schema as zod writes one (the parts the generator reads). */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** What an attacker types into a field: each breaks some layer that trusts its input. */
const hostileStrings = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '/files/../secrets.json',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  '\u202e\u0645',
  '😀'.repeat(300),
  ' ',
  '',
  '-1',
  '1e309',
  'NaN',
  '00000000-0000-0000-0000-000000000000',
];

/** 2 MB: over the body limit in a body, far over every field's limit in a query. */
const TWO_MEGABYTES = 'a'.repeat(2 * 1024 * 1024);

export const hostileString = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...hostileStrings) },
  // What PostgreSQL refuses or mangles, in the places it is most likely to reach a query.
  {
    weight: 8,
    arbitrary: fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', 'a@b.jp\u0000'),
  },
  { weight: 5, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 5, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constant(TWO_MEGABYTES) },
);

/** Nesting far past anything a schema allows. */
const deepNesting = fc
  .integer({ min: 50, max: 1000 })
  .map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown);

/** A value of the wrong kind for any field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  {
    weight: 1,
    arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, Number.MAX_SAFE_INTEGER, [], {}),
  },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
);

/**
 * Ids of things that exist (the fuzzing member, their page): a random uuid names nothing,
 * and a request must name real things to reach the rules and the database behind them.
 */
let knownIds: fc.Arbitrary<string> = fc.uuid();
export function useKnownIds(ids: string[]): void {
  knownIds = fc.oneof(fc.uuid(), fc.constantFrom(...ids));
}

/** Values that fit the schema (mostly), so that requests get past validation to the rules. */
function fromSchema(schema: JsonSchema | boolean | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined || typeof schema === 'boolean' || depth > 6) {
    return fc.jsonValue({ maxDepth: 2 });
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union && union.length > 0) return fc.oneof(...union.map((s) => fromSchema(s, depth + 1)));
  if (schema.allOf?.[0]) return fromSchema(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1000, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 100_000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fromSchema(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object':
      return objectFor(schema, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return knownIds;
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'date') return fc.constantFrom('2020-02-29', '1999-12-31', '2100-01-01');
  const maxLength = Math.min(schema.maxLength ?? 60, 200);
  return fc.oneof(
    fc.string({ minLength: Math.min(schema.minLength ?? 0, maxLength), maxLength }),
    fc.constantFrom('2020-01-01', '2030-01-01T09:00', 'uploads/abcdefghijklmnop1234.png', 'ios'),
    knownIds,
  );
}

function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const shape = Object.fromEntries(
    Object.entries(properties).map(([key, child]) => [key, fromSchema(child, depth + 1)]),
  );
  if (Object.keys(shape).length === 0) {
    return fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), {
      maxKeys: 4,
    });
  }
  return fc.record(shape, {
    requiredKeys: Object.keys(shape).filter((key) => required.has(key)),
  });
}

/** The JSON Schema of one of a route's zod schemas, or undefined when it has none. */
function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Replaces one field of a generated object (or the whole value) with something hostile. */
function withHostileField(value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(value, hostileValue, fc.nat()).map(([generated, hostile, pick]) => {
    if (generated && typeof generated === 'object' && !Array.isArray(generated)) {
      const keys = Object.keys(generated);
      if (keys.length > 0) return { ...generated, [keys[pick % keys.length]!]: hostile };
    }
    return hostile;
  });
}

/** Mostly values that fit, a third with a hostile field, some wholly hostile. */
const fitOrHostile = (value: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 5, arbitrary: value },
    { weight: 3, arbitrary: withHostileField(value) },
    { weight: 1, arbitrary: hostileValue },
  );

export type Caller = 'member' | 'anonymous' | 'integration' | 'bad_bearer';

export interface FuzzRequest {
  method: string;
  url: string;
  caller: Caller;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'text/plain',
  'text/html',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json; charset=latin1',
  'image/svg+xml',
];

/**
 * Percent-encodes like encodeURIComponent, but also a lone surrogate, as the three bytes a
 * careless encoder writes for it (invalid UTF-8), which encodeURIComponent refuses to do.
 */
export function encodeHostile(text: string): string {
  let out = '';
  let from = 0;
  // A fuzzed query may be two megabytes: encoded in runs between lone surrogates, not per character.
  for (const match of text.matchAll(LONE_SURROGATE)) {
    const unit = match[0].charCodeAt(0);
    const bytes = [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)];
    out += encodeURIComponent(text.slice(from, match.index));
    out += bytes.map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    from = match.index + 1;
  }
  return out + encodeURIComponent(text.slice(from));
}

/** A high surrogate with no low one after it, or a low one with no high one before it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const encodeQuery = (entries: [string, string][]) =>
  entries.map(([key, value]) => `${encodeHostile(key)}=${encodeHostile(value)}`).join('&');

const scalarText = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value ?? null) ?? 'null');

/** Requests for one route, generated from its own schemas and mixed with hostile input. */
export function requestsFor(route: RouteEntry): fc.Arbitrary<FuzzRequest> {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const paramNames = [...route.url.matchAll(/:([A-Za-z_]+)|\*/g)].map((m) => m[1] ?? '*');
  const paramsSchema = jsonSchemaOf(schema.params);
  const paramValue = (name: string) =>
    fc.oneof(
      { weight: 4, arbitrary: fromSchema(paramsSchema?.properties?.[name]).map(scalarText) },
      { weight: 3, arbitrary: knownIds },
      { weight: 2, arbitrary: hostileString.filter((s) => s.length < 5000) },
    );
  const params = fc.tuple(...paramNames.map(paramValue));
  const query = fitOrHostile(fromSchema(jsonSchemaOf(schema.querystring)));
  const hasBody = !['GET', 'HEAD'].includes(route.method);
  const body = hasBody
    ? fitOrHostile(fromSchema(jsonSchemaOf(schema.body)))
    : fc.constant(undefined);
  return fc
    .record({
      params,
      query,
      body,
      caller: fc.constantFrom<Caller>('member', 'member', 'anonymous', 'integration', 'bad_bearer'),
      contentType: fc.oneof(
        { weight: 6, arbitrary: fc.constant('application/json') },
        { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      ),
      malformed: fc.oneof(
        { weight: 12, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '{"a":',
            '{"__proto__":{"x":1}}',
            '{"constructor":{"prototype":{"x":1}}}',
            '\u0000',
            '[]]',
            // Nesting deeper than any recursive parser or walker could follow.
            `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
          ),
        },
      ),
    })
    .map(({ params: values, query: q, body: b, caller, contentType, malformed }) => {
      let index = 0;
      const path = route.url.replace(/:([A-Za-z_]+)|\*/g, () =>
        encodeHostile(String(values[index++] ?? '')),
      );
      const search =
        q && typeof q === 'object' && !Array.isArray(q)
          ? encodeQuery(
              Object.entries(q as Record<string, unknown>).map(([key, value]) => [
                key,
                scalarText(value),
              ]),
            )
          : '';
      const payload =
        malformed ??
        (b === undefined
          ? undefined
          : contentType === 'application/x-www-form-urlencoded' &&
              b &&
              typeof b === 'object' &&
              !Array.isArray(b)
            ? encodeQuery(
                Object.entries(b as Record<string, unknown>).map(([k, v]) => [k, scalarText(v)]),
              )
            : JSON.stringify(b));
      return {
        method: route.method,
        url: search ? `${path}?${search}` : path,
        caller,
        headers: (payload === undefined ? {} : { 'content-type': contentType }) as Record<
          string,
          string
        >,
        payload,
      };
    });
}
