import { type BlobStore, type Db, deleteOlderThan } from '../storage/index.js';
import { sweepActivity } from './activity.js';
import type { DocumentLifecycle } from './lifecycle.js';
import { findExpiredFiles } from './repository.js';

const DAY_MS = 86_400_000;
/** Spec: Retention facts. */
export const DOCUMENT_RECORD_DAYS = 120;
export const METADATA_DAYS = 30;
const EXPIRE_BATCH = 1000;

export interface SweepReport {
  filesDeleted: number;
  recordsDeleted: number;
  metadataErased: number;
  activityDeleted: number;
}

export interface RetentionDeps {
  db: Db;
  blobs: BlobStore;
  lifecycle: DocumentLifecycle;
}

/**
 * Deletes expired PDFs and thumbnails, erases metadata and activity entries after 30 days and records after
 * 120 days.
 */
export async function sweepDocuments(deps: RetentionDeps, now: Date): Promise<SweepReport> {
  const { db, blobs, lifecycle } = deps;
  const expired = await findExpiredFiles(db, now, EXPIRE_BATCH);
  for (const id of expired) {
    for (const key of await lifecycle.expireFile(id)) await blobs.delete(key);
  }
  const metadata = await db
    .updateTable('documents')
    .set({ metadata_json: null })
    .where('metadata_json', 'is not', null)
    .where('created_at', '<', new Date(now.getTime() - METADATA_DAYS * DAY_MS).toISOString())
    .executeTakeFirst();
  const recordsDeleted = await deleteOlderThan(
    db.deleteFrom('documents').where('blob_key', 'is', null),
    'created_at',
    DOCUMENT_RECORD_DAYS * DAY_MS,
    now,
  );
  const activityDeleted = await sweepActivity(db, now);
  return {
    activityDeleted,
    filesDeleted: expired.length,
    recordsDeleted,
    metadataErased: Number(metadata.numUpdatedRows),
  };
}
