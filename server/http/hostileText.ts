import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid, type FieldError } from './errors';

/** The code of a text PostgreSQL cannot store: a NUL (U+0000) or a lone UTF-16 surrogate. */
export const UNSTORABLE_TEXT = 'text_invalid_character';

/** Nesting beyond this is no request of ours: refused rather than walked. */
const MAX_DEPTH = 64;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * True for a string PostgreSQL refuses (`text` holds no NUL) or that is no valid Unicode (a
 * lone surrogate would be stored as U+FFFD, silently changing what the member wrote).
 */
export function isUnstorableText(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

/** The first unstorable string or object key under `value`, or nesting past MAX_DEPTH. */
function findUnstorable(value: unknown, path: string, depth: number): FieldError | undefined {
  if (typeof value === 'string') {
    return isUnstorableText(value) ? { field: path, code: UNSTORABLE_TEXT } : undefined;
  }
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
  if (depth > MAX_DEPTH) return { field: path, code: 'too_deep' };
  for (const [key, child] of Object.entries(value)) {
    const field = path ? `${path}.${key}` : key;
    if (isUnstorableText(key)) return { field, code: UNSTORABLE_TEXT };
    const found = findUnstorable(child, field, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Every unstorable text among the request's path parameters, query and body. */
export function unstorableFields(request: FastifyRequest): FieldError[] {
  const errors: FieldError[] = [];
  for (const part of [request.params, request.query, request.body]) {
    const found = findUnstorable(part, '', 0);
    // The wildcard of `/files/*` is the object's path.
    if (found) errors.push({ ...found, field: found.field === '*' ? 'path' : found.field });
  }
  return errors;
}

/**
 * Refuses, on every route and before its own validation, a request whose text could not be
 * stored: 422 naming the field, where the database would otherwise fail with a 500.
 */
export function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const errors = unstorableFields(request);
    if (errors.length > 0) throw invalid(errors, 'text contains a character that cannot be kept');
  });
}
