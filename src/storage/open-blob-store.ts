import path from 'node:path';
import type { S3Location } from '../config/config.js';
import { type BlobStore, FsBlobStore } from './blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';

/** The configured blob store: S3 when QUIRE_STORAGE_URL is set, else DATA_DIR/blobs. */
export function openBlobStore(
  dataDir: string,
  storage: S3Location | null,
): { blobs: BlobStore; close(): void } {
  if (!storage) return { blobs: new FsBlobStore(localBlobDir(dataDir)), close: () => {} };
  const s3 = new S3BlobStore(storage);
  return { blobs: s3, close: () => s3.close() };
}

/** The local store's directory under the data directory. */
export function localBlobDir(dataDir: string): string {
  return path.join(dataDir, 'blobs');
}
