import { sql } from 'kysely';
import type { Clock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import type { Db } from '../storage/db.js';
import type { JobsTable } from './tables.js';

/**
 * The queue port over the database. Every state change is one statement or one transaction guarded by the
 * lease owner, so a job is never run by two workers at once and a job whose worker died is claimed again
 * once its lease has expired (spec issue: durable job queue).
 */
export interface ClaimedJob {
  id: string;
  type: string;
  teamId: string | null;
  test: boolean;
  payload: unknown;
  /** Attempts started, this one included. */
  attempts: number;
  createdAt: string;
  owner: string;
}

export interface EnqueueInput {
  type: string;
  teamId: string | null;
  test: boolean;
  payload: unknown;
  id?: string;
  runAt?: Date;
}

/** Inserts a queued job; pass a transaction to make it part of a larger change. Returns the job id. */
export async function enqueueJob(db: Db, clock: Clock, input: EnqueueInput): Promise<string> {
  const now = clock.now().toISOString();
  const id = input.id ?? newId();
  await db
    .insertInto('jobs')
    .values({
      id,
      type: input.type,
      team_id: input.teamId,
      test: input.test ? 1 : 0,
      payload_json: JSON.stringify(input.payload),
      status: 'queued',
      run_at: (input.runAt ?? clock.now()).toISOString(),
      lease_owner: null,
      lease_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
      finished_at: null,
    })
    .execute();
  return id;
}

/**
 * Claims the oldest due job: queued and due, or running with an expired lease (its worker died).
 * One UPDATE … WHERE id = (SELECT …) statement, atomic in SQLite and safe with FOR UPDATE SKIP LOCKED on PostgreSQL.
 */
export async function claimJob(
  db: Db,
  clock: Clock,
  options: { owner: string; leaseMs: number; types: readonly string[] },
): Promise<ClaimedJob | null> {
  if (options.types.length === 0) return null;
  const now = clock.now();
  const nowIso = now.toISOString();
  const next = db
    .selectFrom('jobs')
    .select('id')
    .where('type', 'in', options.types)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', nowIso)]),
        eb.and([eb('status', '=', 'running'), eb('lease_until', '<=', nowIso)]),
      ]),
    )
    .orderBy('run_at')
    .limit(1);
  const row = await db
    .updateTable('jobs')
    .set({
      status: 'running',
      lease_owner: options.owner,
      lease_until: new Date(now.getTime() + options.leaseMs).toISOString(),
      attempts: sql<number>`attempts + 1`,
      updated_at: nowIso,
    })
    .where('id', '=', next)
    .returningAll()
    .executeTakeFirst();
  return row ? toClaimed(row, options.owner) : null;
}

function toClaimed(row: Omit<JobsTable, 'attempts'> & { attempts: number }, owner: string): ClaimedJob {
  return {
    id: row.id,
    type: row.type,
    teamId: row.team_id,
    test: row.test === 1,
    payload: JSON.parse(row.payload_json) as unknown,
    attempts: row.attempts,
    createdAt: row.created_at,
    owner,
  };
}

/** Extends the lease; false when it was lost (another worker took the job over). */
export async function extendLease(db: Db, clock: Clock, job: ClaimedJob, leaseMs: number): Promise<boolean> {
  const now = clock.now();
  const result = await db
    .updateTable('jobs')
    .set({ lease_until: new Date(now.getTime() + leaseMs).toISOString(), updated_at: now.toISOString() })
    .where('id', '=', job.id)
    .where('lease_owner', '=', job.owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

class LeaseLost extends Error {}

/**
 * Finishes a job and runs `commit` in the same transaction, only while this worker still holds the lease:
 * the job's effects (document state, outbox events) happen exactly once. False when the lease was lost.
 */
export async function finishJob(
  db: Db,
  clock: Clock,
  job: ClaimedJob,
  outcome: { status: 'succeeded' | 'failed'; error: string | null },
  commit?: (trx: Db) => Promise<void>,
): Promise<boolean> {
  const now = clock.now().toISOString();
  try {
    await db.transaction().execute(async (trx) => {
      // The write comes first so SQLite takes the write lock at once (no deferred-upgrade SQLITE_BUSY).
      const result = await trx
        .updateTable('jobs')
        .set({
          status: outcome.status,
          last_error: outcome.error,
          // The request (template data) is not kept once the job is done.
          payload_json: '{}',
          lease_owner: null,
          lease_until: null,
          updated_at: now,
          finished_at: now,
        })
        .where('id', '=', job.id)
        .where('lease_owner', '=', job.owner)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new LeaseLost();
      if (commit) await commit(trx);
    });
    return true;
  } catch (err) {
    if (err instanceof LeaseLost) return false;
    throw err;
  }
}

/**
 * Puts a job back to wait until `runAt`. A deferral (no free render slot) gives the attempt back;
 * a retry keeps it counted.
 */
export async function requeueJob(
  db: Db,
  clock: Clock,
  job: ClaimedJob,
  options: { runAt: Date; error: string | null; countAttempt: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      status: 'queued',
      run_at: options.runAt.toISOString(),
      last_error: options.error,
      lease_owner: null,
      lease_until: null,
      updated_at: clock.now().toISOString(),
      ...(options.countAttempt ? {} : { attempts: sql<number>`attempts - 1` }),
    })
    .where('id', '=', job.id)
    .where('lease_owner', '=', job.owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
