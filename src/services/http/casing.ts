/**
 * The wire's casing rule: requests go out in snake_case, answers are read in
 * camelCase. Only plain objects and arrays are walked; strings, FormData, URLSearchParams,
 * Blobs and dates travel as they are.
 */

export function snakeCaseKey(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

export function camelCaseKey(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_match, next: string) => next.toUpperCase());
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function convertKeys(value: unknown, convertKey: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convertKey));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [convertKey(key), convertKeys(inner, convertKey)]),
  );
}

export const toSnakeCase = (value: unknown): unknown => convertKeys(value, snakeCaseKey);
export const toCamelCase = (value: unknown): unknown => convertKeys(value, camelCaseKey);
