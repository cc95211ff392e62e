import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
}

/**
 * A stand-in for an S3-compatible bucket (path-style PUT, GET and DELETE of objects), so
 * that the app's S3 store is driven over HTTP by the real AWS SDK. It keeps the objects in
 * memory and checks no signature: the presigned URLs' signatures are checked on their own
 * in s3Store.test.ts.
 */
export async function startS3Bucket(bucket: string) {
  const objects = new Map<string, StoredObject>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://bucket');
    const prefix = `/${bucket}/`;
    if (!url.pathname.startsWith(prefix)) {
      response.writeHead(404).end();
      return;
    }
    const key = decodeURIComponent(url.pathname.slice(prefix.length));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'PUT') {
        objects.set(key, {
          body: Buffer.concat(chunks),
          contentType: request.headers['content-type'],
        });
        response.writeHead(200, { etag: '"0"' }).end();
      } else if (request.method === 'GET') {
        const object = objects.get(key);
        if (!object) {
          response
            .writeHead(404, { 'content-type': 'application/xml' })
            .end(
              `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>${key}</Key></Error>`,
            );
          return;
        }
        response
          .writeHead(200, {
            'content-type': url.searchParams.get('response-content-type') ?? object.contentType,
            'content-length': object.body.length,
          })
          .end(object.body);
      } else if (request.method === 'DELETE') {
        objects.delete(key);
        response.writeHead(204).end();
      } else {
        response.writeHead(405).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
