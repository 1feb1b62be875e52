import { type DocumentStatus, OPEN_STATUSES } from '../documents/index.js';
import { chunks, type Db, inKeyScope, keyScopedFinder, newestFirstPage, valuesOf } from '../storage/index.js';
import type { BatchesTable } from './tables.js';

export type BatchRow = BatchesTable;

export type ItemCounts = Record<DocumentStatus, number>;

const NO_ITEMS: ItemCounts = { queued: 0, processing: 0, succeeded: 0, failed: 0, canceled: 0 };

export async function insertBatch(trx: Db, row: BatchRow, documentIds: readonly string[]): Promise<void> {
  await trx.insertInto('batches').values(row).execute();
  const items = documentIds.map((documentId, i) => ({
    batch_id: row.id,
    item_index: i,
    document_id: documentId,
  }));
  for (const chunk of chunks(items)) await trx.insertInto('batch_items').values(chunk).execute();
}

/** A team's batch; test keys see test batches only. */
export const findBatch = keyScopedFinder<'batches', BatchRow>((db) => db.selectFrom('batches').selectAll());

export async function findBatchById(db: Db, id: string): Promise<BatchRow | null> {
  return (await db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** Newest first, by the same (created_at, id) cursor as the document log. */
export async function listBatches(
  db: Db,
  teamId: string,
  options: { testOnly: boolean; limit: number; before: { createdAt: string; id: string } | null },
): Promise<BatchRow[]> {
  const scoped = inKeyScope(db.selectFrom('batches').selectAll(), { teamId, testOnly: options.testOnly });
  return newestFirstPage(scoped, options.before, options.limit).execute();
}

/** Items per document status (the documents table is the one source of item state). */
export async function countItems(db: Db, batchId: string): Promise<ItemCounts> {
  const rows = await db
    .selectFrom('documents')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('batch_id', '=', batchId)
    .groupBy('status')
    .execute();
  const counts = { ...NO_ITEMS };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/** Whether any item still waits or renders (the batch is not done). */
export async function hasOpenItems(db: Db, batchId: string): Promise<boolean> {
  const row = await db
    .selectFrom('documents')
    .select('id')
    .where('batch_id', '=', batchId)
    .where('status', 'in', OPEN_STATUSES)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export interface ItemRow {
  item_index: number;
  document_id: string;
}

/** Items in order after `afterIndex` (exclusive). */
export async function listItems(
  db: Db,
  batchId: string,
  options: { after: number; limit: number },
): Promise<ItemRow[]> {
  return db
    .selectFrom('batch_items')
    .select(['item_index', 'document_id'])
    .where('batch_id', '=', batchId)
    .where('item_index', '>', options.after)
    .orderBy('item_index')
    .limit(options.limit)
    .execute();
}

/** Queued items' document ids (what cancel may withdraw). */
export async function queuedItemIds(db: Db, batchId: string): Promise<string[]> {
  return valuesOf(
    db.selectFrom('documents').select('id').where('batch_id', '=', batchId).where('status', '=', 'queued'),
    'id',
  );
}

/** The stored files of succeeded items, in item order (what the ZIP holds). */
export async function storedItemFiles(
  db: Db,
  batchId: string,
): Promise<{ filename: string; blob_key: string; expires_at: string | null }[]> {
  const rows = await db
    .selectFrom('batch_items as i')
    .innerJoin('documents as d', 'd.id', 'i.document_id')
    .select(['d.filename', 'd.blob_key', 'd.expires_at'])
    .where('i.batch_id', '=', batchId)
    .where('d.status', '=', 'succeeded')
    .where('d.blob_key', 'is not', null)
    .orderBy('i.item_index')
    .execute();
  return rows.flatMap((row) => (row.blob_key ? [{ ...row, blob_key: row.blob_key }] : []));
}

/** Cancel is recorded on a batch still running; a completed batch stays `completed`. */
export async function markCanceled(trx: Db, id: string, at: string): Promise<void> {
  await trx
    .updateTable('batches')
    .set({ canceled_at: at })
    .where('id', '=', id)
    .where('canceled_at', 'is', null)
    .where('completed_at', 'is', null)
    .execute();
}

/** Records completion once: false when the batch was already completed (a repeated ZIP job). */
export async function markCompleted(
  trx: Db,
  id: string,
  input: { at: string; zipKey: string | null; zipExpiresAt: string | null },
): Promise<boolean> {
  const result = await trx
    .updateTable('batches')
    .set({ completed_at: input.at, zip_key: input.zipKey, zip_expires_at: input.zipExpiresAt })
    .where('id', '=', id)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
