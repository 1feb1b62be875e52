import type { Db } from '../storage/db.js';

/**
 * The usage ledger and its reservation counters (tables of migration 0009). The ledger has one row per
 * counted live document, written in the transaction that records the document, and is never swept, so a
 * period's count survives the documents' retention. The counter of a (team, period) holds the ledger's
 * count plus the reservations of documents still in flight.
 */

/** Counted live documents of the team in the period (the ledger). */
export async function countUsed(db: Db, teamId: string, period: string): Promise<number> {
  const row = await db
    .selectFrom('usage_records')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('period', '=', period)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Writes the ledger row of a counted document; a second write for the same document changes nothing. */
export async function recordUsed(
  trx: Db,
  entry: { documentId: string; teamId: string; period: string; at: Date },
): Promise<void> {
  await trx
    .insertInto('usage_records')
    .values({
      document_id: entry.documentId,
      team_id: entry.teamId,
      period: entry.period,
      created_at: entry.at.toISOString(),
    })
    .onConflict((oc) => oc.column('document_id').doNothing())
    .execute();
}

/**
 * Reserves `count` documents when the counter stays within `max`, with one conditional UPDATE: the
 * database applies it atomically, so concurrent callers (in any number of processes, on SQLite or
 * PostgreSQL) can never pass `max` together. Returns false, reserving nothing, when they would.
 */
export async function tryReserve(
  db: Db,
  key: { teamId: string; period: string },
  count: number,
  max: number,
): Promise<boolean> {
  await ensureCounter(db, key);
  let update = db
    .updateTable('usage_counters')
    .set((eb) => ({ reserved: eb('reserved', '+', count) }))
    .where('team_id', '=', key.teamId)
    .where('period', '=', key.period);
  if (Number.isFinite(max)) update = update.where('reserved', '<=', max - count);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives back reservations of documents that will not be counted (failed, abandoned, canceled). */
export async function release(db: Db, key: { teamId: string; period: string }, count: number): Promise<void> {
  await db
    .updateTable('usage_counters')
    .set((eb) => ({ reserved: eb('reserved', '-', count) }))
    .where('team_id', '=', key.teamId)
    .where('period', '=', key.period)
    .where('reserved', '>=', count)
    .execute();
}

/** Counted plus reserved documents (what the next reservation is measured against). */
export async function reservedCount(db: Db, key: { teamId: string; period: string }): Promise<number> {
  const row = await db
    .selectFrom('usage_counters')
    .select('reserved')
    .where('team_id', '=', key.teamId)
    .where('period', '=', key.period)
    .executeTakeFirst();
  return row?.reserved ?? 0;
}

/** The period's counter, started from the ledger; a concurrent creator's row wins and this does nothing. */
async function ensureCounter(db: Db, key: { teamId: string; period: string }): Promise<void> {
  const exists = await db
    .selectFrom('usage_counters')
    .select('reserved')
    .where('team_id', '=', key.teamId)
    .where('period', '=', key.period)
    .executeTakeFirst();
  if (exists) return;
  const used = await countUsed(db, key.teamId, key.period);
  await db
    .insertInto('usage_counters')
    .values({ team_id: key.teamId, period: key.period, reserved: used })
    .onConflict((oc) => oc.columns(['team_id', 'period']).doNothing())
    .execute();
}
