import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers a read whose content is named by `version` (a counter the database bumps on every
 * change, with whatever else the answer depends on): the version as a strong ETag, `304 Not
 * Modified` when the client already holds it, else what `make` gives. By default the answer
 * is the caller's to keep (`private`) and is checked again on every use (`no-cache`): access
 * is decided afresh on every call, before this.
 */
export async function versionedAnswer<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  version: string,
  make: () => Promise<T>,
  cacheControl = 'private, no-cache',
): Promise<T | FastifyReply> {
  const etag = `"${version}"`;
  reply.header('etag', etag).header('cache-control', cacheControl);
  const held = request.headers['if-none-match'];
  if (held?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
    return reply.status(304).send();
  }
  return make();
}
