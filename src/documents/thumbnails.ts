import type { Clock } from '../shared/clock.js';
import type { BlobStore, Db } from '../storage/index.js';
import { isStored } from './present.js';
import { findDocumentById, setDocumentThumbnail } from './repository.js';

export type ThumbnailMaker = (pdf: Buffer) => Promise<Buffer>;

/**
 * Document thumbnails, made lazily on first request (never on a render's latency path) and cached in the
 * blob store while the PDF is stored. Concurrent first requests share one rendering.
 */
export class ThumbnailCache {
  private readonly inFlight = new Map<string, Promise<Buffer | null>>();

  constructor(private readonly deps: { db: Db; blobs: BlobStore; clock: Clock; make: ThumbnailMaker }) {}

  forDocument(id: string): Promise<Buffer | null> {
    const pending = this.inFlight.get(id);
    if (pending) return pending;
    const work = this.load(id).finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, work);
    return work;
  }

  private async load(id: string): Promise<Buffer | null> {
    const { db, blobs, clock, make } = this.deps;
    const row = await findDocumentById(db, id);
    if (!row?.blob_key || !isStored(row, clock.now().getTime()) || row.content_type !== 'application/pdf')
      return null;
    if (row.thumbnail_key) {
      const cached = await blobs.get(row.thumbnail_key);
      if (cached) return cached;
    }
    const pdf = await blobs.get(row.blob_key);
    if (!pdf) return null;
    const png = await make(pdf);
    const key = `thumbnails/documents/${id}.png`;
    await blobs.put(key, png);
    await setDocumentThumbnail(db, id, key);
    return png;
  }
}
