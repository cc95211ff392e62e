/**
 * The yardsticks of the /healthz bench: a bare server that answers every request with the
 * status, headers and body the app sent (BARE_RESPONSE, JSON), on BARE_PORT: node:http itself,
 * or (BARE_FRAMEWORK=fastify) Fastify with one route and nothing else, the floor of any
 * Fastify service on this machine.
 */
import http from 'node:http';
import Fastify from 'fastify';

const { statusCode, headers, body } = JSON.parse(process.env.BARE_RESPONSE!) as {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
};
const port = Number(process.env.BARE_PORT);
const listening = () => process.send?.('listening');

if (process.env.BARE_FRAMEWORK === 'fastify') {
  const app = Fastify({ logger: false });
  app.get('/*', (_request, reply) => reply.code(statusCode).headers(headers).send(body));
  void app.listen({ port, host: '127.0.0.1' }).then(listening);
} else {
  http
    .createServer((_request, response) => {
      response.writeHead(statusCode, headers);
      response.end(body);
    })
    .listen(port, '127.0.0.1', listening);
}
