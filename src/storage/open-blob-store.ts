import path from 'node:path';
import type { S3Location } from '../config/config.js';
import { type BlobStore, FsBlobStore } from './blob-store.js';

/**
 * The configured blob store: S3 when QUIRE_STORAGE_URL is set, else DATA_DIR/blobs. The AWS SDK is loaded
 * only then: it is a large part of start-up for an install that never uses it.
 */
export async function openBlobStore(
  dataDir: string,
  storage: S3Location | null,
): Promise<{ blobs: BlobStore; close(): void }> {
  if (!storage) return { blobs: new FsBlobStore(localBlobDir(dataDir)), close: () => {} };
  const { S3BlobStore } = await import('./s3-blob-store.js');
  const s3 = new S3BlobStore(storage);
  return { blobs: s3, close: () => s3.close() };
}

/** The local store's directory under the data directory. */
export function localBlobDir(dataDir: string): string {
  return path.join(dataDir, 'blobs');
}
