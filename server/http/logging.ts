import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Paths whose segments are secrets (activation and reset links): the segments are masked. */
const SECRET_PATH_PATTERNS: RegExp[] = [
  /^(\/v1\/user\/confirm\/)[^/?]+\/[^/?]+/,
  /^(\/v1\/password_reset\/)[^/?]+/,
];

/** The request URL as it may be logged: no query string values, no secret path segments. */
export function loggableUrl(url: string): string {
  const [pathname = '', query] = url.split('?', 2);
  let safePath = pathname;
  for (const pattern of SECRET_PATH_PATTERNS) safePath = safePath.replace(pattern, '$1[redacted]');
  if (!query) return safePath;
  const keys = [...new URLSearchParams(query).keys()];
  return `${safePath}?${keys.map((key) => `${key}=[redacted]`).join('&')}`;
}

export const loggerOptions = (level: string) => ({
  level,
  redact: {
    paths: [
      'req.headers.authorization',
      'req.headers.cookie',
      'res.headers["set-cookie"]',
      '*.password',
      '*.accessToken',
      '*.refreshToken',
      '*.access_token',
      '*.refresh_token',
    ],
    censor: '[redacted]',
  },
  serializers: {
    req: (request: FastifyRequest) => ({
      method: request.method,
      url: loggableUrl(request.url),
      remoteAddress: request.ip,
    }),
  },
});

/**
 * One line per request, written when it completes (method, url, status, time, request id),
 * through the application's logger and its redaction. The arrival line is debug only, and
 * health probes log at debug: load balancers send one every few seconds.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'request received');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const fields = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) {
      reply.log.error({ ...fields, err: error }, 'request errored');
      return;
    }
    reply.log[request.url === '/healthz' ? 'debug' : 'info'](fields, 'request completed');
  }
}
