/**
 * The yardstick of the /healthz bench: a bare node:http server that answers every request with
 * the status, headers and body the app sent (BARE_RESPONSE, JSON), on BARE_PORT.
 */
import http from 'node:http';

const { statusCode, headers, body } = JSON.parse(process.env.BARE_RESPONSE!) as {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
};

http
  .createServer((_request, response) => {
    response.writeHead(statusCode, headers);
    response.end(body);
  })
  .listen(Number(process.env.BARE_PORT), '127.0.0.1', () => process.send?.('listening'));
