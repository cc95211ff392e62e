import type { FastifyRequest } from 'fastify';

/** Patterns of the requests Fastify's router did not match but a fallback answered. */
const fallbackPatterns = new WeakMap<FastifyRequest, string>();

/**
 * Counts `request` under `pattern`: a page the SPA fallback serves is named by the client's
 * route (`/memory/:memorialPageId`), not lumped with real 404s.
 */
export function countUnderPattern(request: FastifyRequest, pattern: string): void {
  fallbackPatterns.set(request, pattern);
}

/** The route pattern a request is counted under: the router's, a fallback's, or `unmatched`. */
export function routePatternOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? fallbackPatterns.get(request) ?? 'unmatched';
}
