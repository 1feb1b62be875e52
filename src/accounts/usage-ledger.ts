import { sql } from 'kysely';
import { countRows, type Db } from '../storage/index.js';

/**
 * The usage ledger and its reservation counters (tables of migration 0009). The ledger has one row per
 * counted live document, written in the transaction that records the document, and is never swept, so a
 * period's count survives the documents' retention. The counter of a (team, period) holds the ledger's
 * count plus the reservations of documents still in flight.
 */

/** Counted live documents of the team in the period (the ledger). */
export async function countUsed(db: Db, teamId: string, period: string): Promise<number> {
  return countRows(db.selectFrom('usage_records').where('team_id', '=', teamId).where('period', '=', period));
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
  // Never below zero: a counter that drifted low loses what it has rather than keeping everything.
  await db
    .updateTable('usage_counters')
    .set({ reserved: sql<number>`case when reserved >= ${count} then reserved - ${count} else 0 end` })
    .where('team_id', '=', key.teamId)
    .where('period', '=', key.period)
    .execute();
}

/** Counted plus reserved documents (what the next reservation is measured against). */
export async function reservedCount(db: Db, key: { teamId: string; period: string }): Promise<number> {
  return (await findCounter(db, key))?.reserved ?? 0;
}

function findCounter(db: Db, key: { teamId: string; period: string }) {
  return db
    .selectFrom('usage_counters')
    .select('reserved')
    .where('team_id', '=', key.teamId)
    .where('period', '=', key.period)
    .executeTakeFirst();
}

/** The period's counter, started from the ledger; a concurrent creator's row wins and this does nothing. */
async function ensureCounter(db: Db, key: { teamId: string; period: string }): Promise<void> {
  if (await findCounter(db, key)) return;
  const used = await countUsed(db, key.teamId, key.period);
  await db
    .insertInto('usage_counters')
    .values({ team_id: key.teamId, period: key.period, reserved: used })
    .onConflict((oc) => oc.columns(['team_id', 'period']).doNothing())
    .execute();
}

/*
 * Holds: a reservation is not durable until a row says what it is for — a queued document (background) or
 * a ledger row (a direct render's record). Until then the reserving process holds it in `usage_holds`
 * (one row per process, team and period, with a count). A process that dies between reserving and
 * recording leaves its rows behind, and `repairHolds` gives exactly their counts back.
 */

type HoldKey = { holder: string; teamId: string; period: string };

/** Adds `count` to the holder's hold, in the transaction that reserved them. */
export async function addHold(trx: Db, key: HoldKey, count: number, expiresAt: number): Promise<void> {
  await trx
    .insertInto('usage_holds')
    .values({ holder: key.holder, team_id: key.teamId, period: key.period, count, expires_at: expiresAt })
    .onConflict((oc) =>
      oc.columns(['holder', 'team_id', 'period']).doUpdateSet({
        count: sql<number>`usage_holds.count + excluded.count`,
        expires_at: sql<number>`excluded.expires_at`,
      }),
    )
    .execute();
}

/**
 * Takes `count` off the holder's hold. False when the hold is gone: a repair judged the holder dead and
 * already gave the reservations back (the caller then must not give them back again).
 */
export async function takeHold(trx: Db, key: HoldKey, count: number): Promise<boolean> {
  const result = await trx
    .updateTable('usage_holds')
    .set((eb) => ({ count: eb('count', '-', count) }))
    .where('holder', '=', key.holder)
    .where('team_id', '=', key.teamId)
    .where('period', '=', key.period)
    .where('count', '>=', count)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Reserves `count` more without a limit: documents that became durable after their hold was repaired. */
export async function reserveAgain(trx: Db, key: { teamId: string; period: string }, count: number) {
  await trx
    .updateTable('usage_counters')
    .set((eb) => ({ reserved: eb('reserved', '+', count) }))
    .where('team_id', '=', key.teamId)
    .where('period', '=', key.period)
    .execute();
}

/** The holder's heartbeat: its holds live on; its emptied rows go. */
export async function renewHolds(db: Db, holder: string, expiresAt: number): Promise<void> {
  await db.deleteFrom('usage_holds').where('holder', '=', holder).where('count', '=', 0).execute();
  await db.updateTable('usage_holds').set({ expires_at: expiresAt }).where('holder', '=', holder).execute();
}

/**
 * Gives back the holds of dead holders: every other holder's (`othersThan`, SQLite at start: one process
 * serves the API, so whatever an earlier process held is orphaned) or those not renewed since
 * `expiredBefore` (PostgreSQL). Each hold is deleted and its count released in one transaction, so a
 * hold is given back once however many processes repair at the same time. Returns how many were given back.
 */
export async function repairHolds(
  db: Db,
  dead: { othersThan: string } | { expiredBefore: number },
): Promise<number> {
  let query = db.selectFrom('usage_holds').select(['holder', 'team_id', 'period']).where('count', '>', 0);
  query =
    'othersThan' in dead
      ? query.where('holder', '<>', dead.othersThan)
      : query.where('expires_at', '<', dead.expiredBefore);
  let released = 0;
  for (const hold of await query.execute()) {
    released += await db.transaction().execute(async (trx) => {
      let remove = trx
        .deleteFrom('usage_holds')
        .where('holder', '=', hold.holder)
        .where('team_id', '=', hold.team_id)
        .where('period', '=', hold.period);
      if ('expiredBefore' in dead) remove = remove.where('expires_at', '<', dead.expiredBefore);
      const gone = await remove.returning('count').executeTakeFirst();
      if (!gone) return 0;
      await release(trx, { teamId: hold.team_id, period: hold.period }, gone.count);
      return gone.count;
    });
  }
  return released;
}
