import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError, type DomainErrorKind, type FieldError } from '../domain/errors';
import { faultAnswer } from './faults';

export {
  conflict,
  forbidden,
  invalid,
  notFound,
  unauthenticated,
  type FieldError,
} from '../domain/errors';

/**
 * An error that is about HTTP itself (a session cookie, a callback URL, a header), thrown by
 * routes and hooks. `code` is stable and machine-readable; `detail` is for people.
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

/** The status of each kind of domain refusal. */
const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 422,
  link_invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_type: 415,
  locked: 423,
  too_many_attempts: 429,
  unavailable: 503,
};

/** A domain refusal as HTTP: its status and the headers it carries (`retry-after`). */
export function httpAnswerOf(error: DomainError): {
  status: number;
  headers: Record<string, string>;
} {
  const headers: Record<string, string> =
    error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) };
  return { status: STATUS_OF_KIND[error.kind], headers };
}

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
    if (error instanceof DomainError) {
      const answer = httpAnswerOf(error);
      return send(reply.headers(answer.headers), answer.status, {
        detail: error.detail,
        code: error.code,
        ...(error.errors ? { errors: error.errors } : {}),
      });
    }
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
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') keepReadingUntilTheBodyEnds(request, reply);
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

/** The framework's client errors: a fixed code and a detail that echoes nothing sent. */
const FRAMEWORK_ERRORS: Record<string, { code: string; detail: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', detail: 'request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    detail: 'this content type is not accepted here',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'bad_content_length',
    detail: 'content-length does not match the body',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'malformed_json', detail: 'request body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'malformed_json',
    detail: 'request body is not valid JSON',
  },
  FST_ERR_BAD_URL: { code: 'bad_url', detail: 'the URL is not validly percent-encoded' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'uri_too_long', detail: 'a part of the path is too long' },
};

function clientErrorCode(error: FastifyError): string {
  if (error.code && FRAMEWORK_ERRORS[error.code]) return FRAMEWORK_ERRORS[error.code]!.code;
  return error instanceof SyntaxError ? 'malformed_json' : 'bad_request';
}

function clientErrorDetail(error: FastifyError): string {
  if (error.code && FRAMEWORK_ERRORS[error.code]) return FRAMEWORK_ERRORS[error.code]!.detail;
  if (error instanceof SyntaxError) return 'request body is not valid JSON';
  return error.message;
}

/** How much of a refused body is still read (and thrown away) so that its 413 arrives. */
const REFUSED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * Fastify answers a body over the limit with `connection: close`, and Node then closes the
 * socket while the client is still sending: the unread bytes make the kernel reset the
 * connection and the client often loses the 413. Reading the rest of the body (up to a
 * bound) and keeping the connection lets every client read its answer.
 */
function keepReadingUntilTheBodyEnds(request: FastifyRequest, reply: FastifyReply): void {
  reply.removeHeader('connection');
  const body = request.raw;
  let drained = 0;
  body.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > REFUSED_BODY_DRAIN_BYTES) body.socket?.destroy();
  });
  body.resume();
}

/**
 * The Fastify options that route the framework's own refusals (a malformed percent-encoding,
 * a path parameter over the router's limit) to the same `{detail, code}` answers.
 */
export const frameworkErrorOptions = {
  frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
    void send(reply, status, { detail: clientErrorDetail(error), code: clientErrorCode(error) });
  },
  clientErrorHandler: answerClientError,
  routerOptions: { maxParamLength: 1000 },
} satisfies Partial<FastifyServerOptions>;

/**
 * What Node's HTTP parser refuses before Fastify sees a request (headers or request line
 * too large, a malformed request, a timeout) answers the same JSON shape, then closes.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'request line or headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'the request took too long to arrive']
        : [400, 'bad_request', 'the request is not valid HTTP'];
  const body = JSON.stringify({ detail, code });
  if (!socket.writable) return void socket.destroy();
  // Ended, not destroyed at once: a client still sending would otherwise get a reset in
  // place of the answer.
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS).unref();
}

/** How long a refused connection stays open for its answer to be read. */
const CLIENT_ERROR_LINGER_MS = 2000;
