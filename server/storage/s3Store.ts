import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config';
import type { Clock } from '../lib/clock';
import {
  imageTypeOfName,
  OBJECT_NAME_PATTERN,
  SIGNED_URL_TTL_SECONDS,
  type ObjectStore,
} from './objectStore';

/** The size of each part of a multipart upload (S3 asks at least 5 MiB but of the last). */
export const MULTIPART_PART_BYTES = 8 * 1024 * 1024;

/**
 * Uploads in any S3-compatible store (AWS S3, MinIO, Cloudflare R2, ...). Only the server
 * writes objects, with the type it detected; browsers read them through presigned GET URLs.
 * Signature V4 covers the method, the bucket, the key and the response type the URL asks
 * for, so a URL for one object opens no other and serves no other type.
 */
export function createS3Store(
  config: S3Config,
  clock: Clock,
): ObjectStore & { origin(): Promise<string> } {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Newer SDKs add CRC checksums of an empty body to presigned PUT URLs, which then refuse
    // the real upload, and many S3-compatible stores reject them: checksum only when required.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const key = (objectName: string) => {
    if (!OBJECT_NAME_PATTERN.test(objectName)) throw new Error(`invalid object name ${objectName}`);
    return { Bucket: config.bucket, Key: objectName };
  };

  const store: ObjectStore = {
    async signedUrl(objectName, method, expiresInSeconds = SIGNED_URL_TTL_SECONDS) {
      if (!(expiresInSeconds > 0 && expiresInSeconds <= SIGNED_URL_TTL_SECONDS)) {
        throw new RangeError(`signed URLs live 1 to ${SIGNED_URL_TTL_SECONDS} seconds`);
      }
      if (method !== 'GET') throw new RangeError('only GET URLs are presigned');
      const type = imageTypeOfName(objectName);
      const command = new GetObjectCommand({
        ...key(objectName),
        ...(type ? { ResponseContentType: type } : {}),
      });
      return getSignedUrl(client, command, {
        expiresIn: expiresInSeconds,
        signingDate: clock.now(),
      });
    },
    async put(objectName, body, contentType) {
      await client.send(
        new PutObjectCommand({ ...key(objectName), Body: body, ContentType: contentType }),
      );
    },
    async putStream(objectName, body, contentType) {
      const { UploadId } = await client.send(
        new CreateMultipartUploadCommand({ ...key(objectName), ContentType: contentType }),
      );
      const upload = { ...key(objectName), UploadId };
      try {
        const parts: { ETag: string | undefined; PartNumber: number }[] = [];
        let total = 0;
        const sendPart = async (chunk: Buffer) => {
          const PartNumber = parts.length + 1;
          const { ETag } = await client.send(
            new UploadPartCommand({ ...upload, PartNumber, Body: chunk }),
          );
          parts.push({ ETag, PartNumber });
          total += chunk.length;
        };
        // One part in memory at a time: the stream waits while a part is sent.
        let pending: Buffer[] = [];
        let pendingBytes = 0;
        for await (const piece of body as AsyncIterable<Buffer>) {
          pending.push(piece);
          pendingBytes += piece.length;
          while (pendingBytes >= MULTIPART_PART_BYTES) {
            const joined = Buffer.concat(pending);
            await sendPart(joined.subarray(0, MULTIPART_PART_BYTES));
            pending = [joined.subarray(MULTIPART_PART_BYTES)];
            pendingBytes = pending[0]!.length;
          }
        }
        if (pendingBytes > 0 || parts.length === 0) await sendPart(Buffer.concat(pending));
        await client.send(
          new CompleteMultipartUploadCommand({ ...upload, MultipartUpload: { Parts: parts } }),
        );
        return total;
      } catch (error) {
        await client.send(new AbortMultipartUploadCommand(upload)).catch(() => undefined);
        throw error;
      }
    },
    async getStream(objectName) {
      try {
        const object = await client.send(new GetObjectCommand(key(objectName)));
        if (!object.Body) return undefined;
        return {
          body: object.Body as Readable,
          contentType: object.ContentType ?? 'application/octet-stream',
          byteSize: object.ContentLength ?? 0,
        };
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw error;
      }
    },
    async get(objectName) {
      try {
        const object = await client.send(new GetObjectCommand(key(objectName)));
        if (!object.Body) return undefined;
        return {
          body: Buffer.from(await object.Body.transformToByteArray()),
          contentType: object.ContentType ?? 'application/octet-stream',
        };
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw error;
      }
    },
    async delete(objectName) {
      await client.send(new DeleteObjectCommand(key(objectName)));
    },
    async *list() {
      let continuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: config.bucket, ContinuationToken: continuationToken }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key && OBJECT_NAME_PATTERN.test(object.Key)) yield object.Key;
        }
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
    },
    async probe() {
      await client.send(new HeadBucketCommand({ Bucket: config.bucket }));
    },
  };
  return {
    ...store,
    /**
     * The origin presigned URLs point at, for the Content-Security-Policy. Asked of the SDK
     * itself: whether the bucket becomes a subdomain depends on the endpoint (never for an IP
     * address), the bucket name and S3_FORCE_PATH_STYLE.
     */
    async origin() {
      return new URL(await store.signedUrl('origin/probe-object-name', 'GET')).origin;
    },
  };
}
