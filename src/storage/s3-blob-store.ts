import { PassThrough, Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Location } from '../config/config.js';
import { assertSafeKey, type BlobStore, BlobStoreUnavailable } from './blob-store.js';

/** Parts of a multipart upload: S3's minimum is 5 MiB; two in flight bound memory at 16 MiB per upload. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
const READY_TIMEOUT_MS = 3_000;

/**
 * The S3 client for a location. Credentials and (when the URL names none) the region come from the SDK's
 * standard chain: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN / AWS_REGION.
 */
export function createS3Client(location: S3Location, overrides: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({
    region: location.region ?? process.env.AWS_REGION ?? 'us-east-1',
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    forcePathStyle: location.forcePathStyle,
    // Checksums only where S3 requires them: the default (since 2025) sends aws-chunked bodies with
    // trailing CRC32s that many S3-compatible servers reject. migrate-data verifies SHA-256s itself.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that does not answer must become a 503 in seconds, not hang a request for minutes.
    maxAttempts: 2,
    // Without throwOnRequestTimeout the SDK only logs an overdue request and keeps waiting. requestTimeout
    // runs until the answer's headers (a whole 8 MiB part upload included); socketTimeout is idleness,
    // including while a download streams.
    requestHandler: {
      connectionTimeout: 3_000,
      requestTimeout: 60_000,
      throwOnRequestTimeout: true,
      socketTimeout: 10_000,
    },
    ...overrides,
  });
}

function statusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function isMissing(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(err) === 404;
}

/** Blobs as objects under `prefix` in one bucket; reads and writes stream (multipart for large ones). */
export class S3BlobStore implements BlobStore {
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(
    location: S3Location,
    private readonly client: S3Client = createS3Client(location),
  ) {
    this.bucket = location.bucket;
    this.prefix = location.prefix;
  }

  private objectKey(key: string): string {
    assertSafeKey(key);
    return `${this.prefix}${key}`;
  }

  /** Runs one call to the store; its failures become BlobStoreUnavailable (missing objects are the caller's). */
  private async call<T>(run: () => Promise<T>, missing?: () => T): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (missing && isMissing(err)) return missing();
      throw new BlobStoreUnavailable(err);
    }
  }

  async put(key: string, data: Buffer): Promise<void> {
    const Key = this.objectKey(key);
    // An S3 PUT is atomic: readers see the old object or the whole new one.
    await this.call(() =>
      this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key, Body: data, ContentLength: data.length }),
      ),
    );
  }

  async putStream(key: string, data: Readable): Promise<number> {
    const Key = this.objectKey(key);
    let size = 0;
    const counted = new PassThrough();
    counted.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    // The source's errors reach the upload through the PassThrough, failing it (no partial object remains:
    // lib-storage aborts the multipart upload).
    data.on('error', (err) => counted.destroy(err));
    data.pipe(counted);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key, Body: counted },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
    });
    try {
      await upload.done();
    } catch (err) {
      data.destroy();
      // The source's own failure (a vanished PDF in a ZIP) is not the store's.
      if (data.errored) throw data.errored;
      throw new BlobStoreUnavailable(err);
    }
    return size;
  }

  async read(key: string): Promise<{ stream: Readable; size: number } | null> {
    const Key = this.objectKey(key);
    return this.call(
      async () => {
        const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
        if (!(out.Body instanceof Readable)) throw new Error('S3 GetObject returned no Node stream');
        return { stream: out.Body, size: out.ContentLength ?? 0 };
      },
      () => null,
    );
  }

  async get(key: string): Promise<Buffer | null> {
    const found = await this.read(key);
    if (!found) return null;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of found.stream) chunks.push(chunk as Buffer);
    } catch (err) {
      throw new BlobStoreUnavailable(err);
    }
    return Buffer.concat(chunks);
  }

  async exists(key: string): Promise<boolean> {
    const Key = this.objectKey(key);
    return this.call(
      async () => {
        await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
        return true;
      },
      () => false,
    );
  }

  async delete(key: string): Promise<void> {
    const Key = this.objectKey(key);
    await this.call(
      async () => void (await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }))),
      () => undefined,
    );
  }

  async ready(): Promise<boolean> {
    try {
      // Probes expect an answer within seconds, not after the client's retries and timeouts.
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
        abortSignal: AbortSignal.timeout(READY_TIMEOUT_MS),
      });
      return true;
    } catch {
      return false;
    }
  }

  async *keys(): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.call(() =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }),
        ),
      );
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key.slice(this.prefix.length);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Releases the client's sockets. */
  close(): void {
    this.client.destroy();
  }
}
