import type { BlobStore, Db } from '../storage/index.js';
import { deleteVersionsWhere } from './repository.js';

const DAY_MS = 86_400_000;
/** Spec "Retention facts": deleted templates are kept 30 days, then erased with all versions. */
export const DELETED_TEMPLATE_DAYS = 30;
/** Templates erased per sweep pass, so one pass never holds the database for long. */
const SWEEP_BATCH = 200;

/** Erases templates deleted 30 days ago or more, with every version and cached thumbnail. */
export async function sweepTemplates(
  db: Db,
  blobs: BlobStore,
  now: Date,
): Promise<{ templatesErased: number }> {
  const cutoff = new Date(now.getTime() - DELETED_TEMPLATE_DAYS * DAY_MS).toISOString();
  const due = await db
    .selectFrom('templates')
    .select('id')
    .where('deleted_at', 'is not', null)
    .where('deleted_at', '<=', cutoff)
    .limit(SWEEP_BATCH)
    .execute();
  const ids = due.map((r) => r.id);
  if (ids.length === 0) return { templatesErased: 0 };
  const thumbnails = await db.transaction().execute(async (trx) => {
    const keys = await deleteVersionsWhere(trx, (eb) => eb('template_id', 'in', ids));
    await trx.deleteFrom('templates').where('id', 'in', ids).execute();
    return keys;
  });
  // Rows first: a thumbnail whose row is gone is unreachable, so deleting the files after is safe.
  await Promise.all(thumbnails.map((key) => blobs.delete(key)));
  return { templatesErased: ids.length };
}
