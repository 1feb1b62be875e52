import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { parseStorageUrl, type S3Location } from '../../src/config/config.js';

/** s3rver's fixed key pair; the SDK reads it from the standard variables, as in production. */
function useTestCredentials(): void {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  delete process.env.AWS_SESSION_TOKEN;
  // The SDK warns once per process that Node 20 support ends in 2027; the tests need not say it every run.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

export interface TestS3 {
  /** A QUIRE_STORAGE_URL for the bucket under `prefix` (default `quire/`). */
  url(prefix?: string): string;
  location(prefix?: string): S3Location;
  bucket: string;
  /** Stops the server (the store becomes unreachable); `start` brings it back on the same port and data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  close(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on a free loopback port, with one bucket, files in a temp dir. */
export async function startS3Server(bucket = 'quire-test'): Promise<TestS3> {
  useTestCredentials();
  const directory = mkdtempSync(path.join(tmpdir(), 'quire-s3-'));
  let port = 0;
  let server: S3rver | null = null;
  const start = async () => {
    const next = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket }],
    });
    port = (await next.run()).port;
    server = next;
  };
  const stop = async () => {
    const running = server;
    server = null;
    if (!running) return;
    // Keep-alive sockets of the SDK would hold close() open.
    running.httpServer.closeAllConnections();
    await running.close();
  };
  await start();
  const url = (prefix = 'quire/') =>
    `s3://${bucket}/${prefix}?endpoint=http://127.0.0.1:${port}&region=us-east-1&force_path_style=true`;
  return {
    bucket,
    url,
    location: (prefix) => parseStorageUrl(url(prefix), 'storage') as S3Location,
    stop,
    start,
    async close() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
