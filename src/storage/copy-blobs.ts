import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { BlobStore } from './blob-store.js';

/** Objects copied at once: enough to hide an object store's latency, few enough for a small machine. */
const PARALLEL = 4;

export interface BlobCopyReport {
  objects: number;
  bytes: number;
}

interface Digest {
  size: number;
  sha256: string;
}

/** Hashes a stream as it flows on: the returned stream is what to consume, `digest` settles at its end. */
function hashing(stream: Readable): { stream: Readable; digest: Promise<Digest> } {
  const hash = createHash('sha256');
  let size = 0;
  const out = new PassThrough();
  const digest = new Promise<Digest>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
    });
    stream.on('end', () => resolve({ size, sha256: hash.digest('hex') }));
    stream.on('error', reject);
  });
  stream.on('error', (err) => out.destroy(err));
  stream.pipe(out);
  // The digest is awaited only after the upload; a failure before then is the upload's to report.
  digest.catch(() => {});
  return { stream: out, digest };
}

async function digestOf(blobs: BlobStore, key: string): Promise<Digest | null> {
  const found = await blobs.read(key);
  if (!found) return null;
  const { stream, digest } = hashing(found.stream);
  stream.resume();
  return digest;
}

/** Copies one object, then reads it back from the target and compares size and SHA-256. */
async function copyOne(source: BlobStore, target: BlobStore, key: string): Promise<number | null> {
  const found = await source.read(key);
  if (!found) return null; // deleted meanwhile (retention): nothing to copy
  const { stream, digest } = hashing(found.stream);
  await target.putStream(key, stream);
  const [expected, copied] = [await digest, await digestOf(target, key)];
  if (!copied || copied.size !== expected.size || copied.sha256 !== expected.sha256)
    throw new Error(`Blob ${key} differs after the copy (size or SHA-256).`);
  return expected.size;
}

/** Copies every object of `source` to `target`, each verified by size and SHA-256. */
export async function copyBlobs(source: BlobStore, target: BlobStore): Promise<BlobCopyReport> {
  const report: BlobCopyReport = { objects: 0, bytes: 0 };
  const keys = source.keys()[Symbol.asyncIterator]();
  const worker = async () => {
    for (let next = await keys.next(); !next.done; next = await keys.next()) {
      const bytes = await copyOne(source, target, next.value);
      if (bytes === null) continue;
      report.bytes += bytes;
      report.objects += 1;
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return report;
}
