import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeptBody } from '../domain/keptAnswers';
import { acceptedEncodings } from './encodings';

/** The content type of an answer sent as ready JSON text. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends a kept JSON answer as it is: its gzip copy to a client that accepts gzip (every
 * browser does), the plain text to any other. Nothing is serialised or compressed here.
 */
export function sendKeptJson(request: FastifyRequest, reply: FastifyReply, answer: KeptBody) {
  reply.type(JSON_TYPE).header('vary', 'accept-encoding');
  if (answer.gzipped && acceptedEncodings(request.headers['accept-encoding']).has('gzip')) {
    return reply.header('content-encoding', 'gzip').send(answer.gzipped);
  }
  return reply.send(answer.body);
}
