import type { BlobStore } from '../storage/blob-store.js';
import type { Db } from '../storage/db.js';

const DAY_MS = 86_400_000;
/** Spec: Retention facts. */
export const DOCUMENT_RECORD_DAYS = 120;
export const METADATA_DAYS = 30;

export interface SweepReport {
  filesDeleted: number;
  recordsDeleted: number;
  metadataErased: number;
}

/** Deletes expired PDFs and thumbnails, erases metadata after 30 days and records after 120 days. */
export async function sweepDocuments(db: Db, blobs: BlobStore, now: Date): Promise<SweepReport> {
  const nowIso = now.toISOString();
  const expired = await db
    .selectFrom('documents')
    .select(['id', 'blob_key', 'thumbnail_key'])
    .where('blob_key', 'is not', null)
    .where('expires_at', '<=', nowIso)
    .limit(1000)
    .execute();
  for (const row of expired) {
    // Drop the record's pointer first: a reader never sees a key whose file is half gone.
    await db
      .updateTable('documents')
      .set({ blob_key: null, thumbnail_key: null, stored_bytes: 0, updated_at: nowIso })
      .where('id', '=', row.id)
      .execute();
    if (row.blob_key) await blobs.delete(row.blob_key);
    if (row.thumbnail_key) await blobs.delete(row.thumbnail_key);
  }
  const metadata = await db
    .updateTable('documents')
    .set({ metadata_json: null })
    .where('metadata_json', 'is not', null)
    .where('created_at', '<', new Date(now.getTime() - METADATA_DAYS * DAY_MS).toISOString())
    .executeTakeFirst();
  const records = await db
    .deleteFrom('documents')
    .where('created_at', '<', new Date(now.getTime() - DOCUMENT_RECORD_DAYS * DAY_MS).toISOString())
    .where('blob_key', 'is', null)
    .executeTakeFirst();
  return {
    filesDeleted: expired.length,
    recordsDeleted: Number(records.numDeletedRows),
    metadataErased: Number(metadata.numUpdatedRows),
  };
}
