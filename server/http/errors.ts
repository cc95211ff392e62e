import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { faultAnswer } from './faults';

/** One field's problem: the request field (snake_case, dotted for nesting) and a stable code. */
export interface FieldError {
  field: string;
  code: string;
}

/**
 * The one error type routes and domain code throw. `code` is stable and machine-readable
 * (the client maps it to its Japanese text); `detail` is for people reading logs and docs.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export const notFound = (what = 'resource') => new ApiError(404, 'not_found', `${what} not found`);
export const forbidden = (detail = 'not allowed') => new ApiError(403, 'forbidden', detail);
export const unauthorized = (detail = 'authentication required') =>
  new ApiError(401, 'unauthorized', detail);
export const conflict = (code: string, detail: string) => new ApiError(409, code, detail);
export const invalid = (errors: FieldError[], detail = 'invalid input') =>
  new ApiError(422, 'validation_failed', detail, errors);

interface ErrorBody {
  detail: string;
  code: string;
  errors?: FieldError[];
}

function send(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/** Maps every error to `{detail, code}` JSON with the right status; 5xx hide their cause. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      if (error.headers) reply.headers(error.headers);
      return send(reply, error.statusCode, {
        detail: error.detail,
        code: error.code,
        ...(error.errors ? { errors: error.errors } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((issue) => ({
        field: fieldName(issue.instancePath, issue.params),
        code: issue.message ?? 'invalid',
      }));
      return send(reply, 422, { detail: 'invalid input', code: 'validation_failed', errors });
    }
    const status = error.statusCode ?? 500;
    const fault = status >= 500 ? faultAnswer(error) : undefined;
    if (fault) {
      request.log.warn({ err: error }, fault.detail);
      return send(reply.headers(fault.headers), fault.status, {
        detail: fault.detail,
        code: fault.code,
      });
    }
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return send(reply, 500, { detail: 'internal server error', code: 'internal_error' });
    }
    return send(reply, status, { detail: clientErrorDetail(error), code: clientErrorCode(error) });
  });
}

function fieldName(instancePath: string, params: unknown): string {
  const fromPath = instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (fromPath) return fromPath;
  const issue = (params as { issue?: { path?: PropertyKey[] } } | undefined)?.issue;
  return issue?.path?.map(String).join('.') ?? '';
}

function clientErrorCode(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'payload_too_large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported_media_type';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'malformed_json';
    default:
      return error instanceof SyntaxError ? 'malformed_json' : 'bad_request';
  }
}

function clientErrorDetail(error: FastifyError): string {
  if (error instanceof SyntaxError) return 'request body is not valid JSON';
  return error.message;
}
