import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
}

/**
 * A stand-in for an S3-compatible bucket (path-style PUT, GET and DELETE of objects, and
 * multipart uploads: create, parts, complete, abort), so
 * that the app's S3 store is driven over HTTP by the real AWS SDK. It keeps the objects in
 * memory and checks no signature: the presigned URLs' signatures are checked on their own
 * in s3Store.test.ts.
 */
export async function startS3Bucket(bucket: string) {
  const objects = new Map<string, StoredObject>();
  /** Multipart uploads begun and neither completed nor aborted, by upload id. */
  const uploads = new Map<
    string,
    { key: string; contentType: string | undefined; parts: Map<number, Buffer> }
  >();
  let uploadCount = 0;
  /** While true, every request is answered 500 (a store that is down). */
  const state = { failing: false };
  const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>${body}`;
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
      if (state.failing) {
        response
          .writeHead(500, { 'content-type': 'application/xml' })
          .end(xml('<Error><Code>InternalError</Code><Message>down</Message></Error>'));
        return;
      }
      const uploadId = url.searchParams.get('uploadId');
      if (request.method === 'POST' && url.searchParams.has('uploads')) {
        const id = `upload-${++uploadCount}`;
        uploads.set(id, { key, contentType: request.headers['content-type'], parts: new Map() });
        response
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            xml(
              `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
            ),
          );
      } else if (uploadId !== null) {
        const upload = uploads.get(uploadId);
        if (!upload || upload.key !== key) {
          response
            .writeHead(404, { 'content-type': 'application/xml' })
            .end(xml('<Error><Code>NoSuchUpload</Code><Message>no such upload</Message></Error>'));
        } else if (request.method === 'PUT') {
          const partNumber = Number(url.searchParams.get('partNumber'));
          upload.parts.set(partNumber, Buffer.concat(chunks));
          response.writeHead(200, { etag: `"part-${partNumber}"` }).end();
        } else if (request.method === 'POST') {
          const numbers = [...upload.parts.keys()].sort((a, b) => a - b);
          objects.set(key, {
            body: Buffer.concat(numbers.map((number) => upload.parts.get(number)!)),
            contentType: upload.contentType,
          });
          uploads.delete(uploadId);
          response
            .writeHead(200, { 'content-type': 'application/xml' })
            .end(
              xml(
                `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>"0"</ETag></CompleteMultipartUploadResult>`,
              ),
            );
        } else if (request.method === 'DELETE') {
          uploads.delete(uploadId);
          response.writeHead(204).end();
        } else {
          response.writeHead(405).end();
        }
      } else if (request.method === 'PUT') {
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
    uploads,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
