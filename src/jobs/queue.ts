import { sql } from 'kysely';
import type { Clock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import { chunks, type Db, isPostgres, lockKey, notify, skipLocked } from '../storage/index.js';
import { currentTraceparent, tracingActive } from '../telemetry/index.js';
import { traceEnqueued } from './queue-events.js';
import { type JobStatus, type JobTransition, movableFrom, TRANSITIONS } from './states.js';
import type { JobsTable } from './tables.js';

/**
 * The queue port over the database. Every state change is one statement or one transaction guarded by the
 * lease owner, so a job is never run by two workers at once and a job whose worker died is claimed again
 * once its lease has expired.
 */
export interface ClaimedJob<P = unknown> {
  id: string;
  kind: string;
  teamId: string | null;
  test: boolean;
  /** As stored; a kind's handler gets it checked against the kind's schema (define-kind.ts). */
  payload: P;
  /** Attempts started, this one included. */
  attempts: number;
  /** The job's own limit, or null for its kind's. */
  maxAttempts: number | null;
  createdAt: string;
  owner: string;
  /** The trace the job was queued in (W3C traceparent), continued by the worker; absent while tracing is off. */
  traceparent?: string;
}

export interface EnqueueInput {
  kind: string;
  /** The team whose background-work limits the job counts against; null for the service's own work. */
  teamId: string | null;
  test: boolean;
  payload: unknown;
  id?: string;
  runAt?: Date;
  /** Overrides the kind's attempt limit for this job (e.g. 1 for a webhook test event). */
  maxAttempts?: number;
  /** While a job of this kind with this key exists, enqueueing again returns it instead of a new one. */
  jobKey?: string;
  /** At most `limit` jobs with this key run at once, across every process. */
  concurrency?: { key: string; limit: number };
}

export interface EnqueuedJob {
  id: string;
  /** False when a job with the same kind and key already existed (its id is returned). */
  created: boolean;
}

/** Inserts a queued job; pass a transaction to make it part of a larger change. */
export async function enqueueJob(db: Db, clock: Clock, input: EnqueueInput): Promise<EnqueuedJob> {
  const row = queuedJobRow(clock.now(), input);
  const inserted = await db
    .insertInto('jobs')
    .values(row)
    // The partial unique index jobs_kind_key is the arbiter, so two racing enqueues make one job.
    .onConflict((oc) => oc.columns(['kind', 'job_key']).where('job_key', 'is not', null).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 || input.jobKey === undefined) {
    // Delivered when the enqueueing transaction commits (at once outside one); a no-op on SQLite.
    await notify(db, JOBS_CHANNEL);
    await traceEnqueued(db, input.kind, 1);
    return { id: row.id, created: true };
  }
  const existing = await findJobByKey(db, input.kind, input.jobKey);
  if (!existing) throw new Error(`job ${input.kind}/${input.jobKey} conflicted but is gone`);
  return { id: existing.id, created: false };
}

/**
 * Inserts many new queued jobs (a batch's renders) in multi-row statements; pass a transaction. No
 * deduplication: each job key must be new, and a clash throws (rolling the caller's transaction back)
 * rather than dropping a job silently. Returns the ids in input order.
 */
export async function enqueueJobs(db: Db, clock: Clock, inputs: readonly EnqueueInput[]): Promise<string[]> {
  const now = clock.now();
  const rows = inputs.map((input) => queuedJobRow(now, input));
  for (const chunk of chunks(rows)) await db.insertInto('jobs').values(chunk).execute();
  if (rows.length > 0) await notify(db, JOBS_CHANNEL);
  if (tracingActive()) for (const [kind, added] of countByKind(rows)) await traceEnqueued(db, kind, added);
  return rows.map((row) => row.id);
}

function countByKind(rows: ReadonlyArray<{ kind: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { kind } of rows) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

function queuedJobRow(at: Date, input: EnqueueInput) {
  const now = at.toISOString();
  return {
    id: input.id ?? newId(),
    kind: input.kind,
    team_id: input.teamId,
    test: input.test ? 1 : 0,
    payload_json: payloadJson(input.payload),
    status: TRANSITIONS.enqueue.to,
    max_attempts: input.maxAttempts ?? null,
    job_key: input.jobKey ?? null,
    concurrency_key: input.concurrency?.key ?? null,
    concurrency_limit: input.concurrency?.limit ?? null,
    run_at: input.runAt?.toISOString() ?? now,
    lease_owner: null,
    lease_until: null,
    last_error: null,
    created_at: now,
    updated_at: now,
    finished_at: null,
  };
}

export async function findJobByKey(
  db: Db,
  kind: string,
  jobKey: string,
): Promise<{ id: string; status: JobStatus } | null> {
  const row = await db
    .selectFrom('jobs')
    .select(['id', 'status'])
    .where('kind', '=', kind)
    .where('job_key', '=', jobKey)
    .executeTakeFirst();
  return row ?? null;
}

/** Channel on which enqueues wake the workers of every process (PostgreSQL; SQLite polls). */
export const JOBS_CHANNEL = 'quire_jobs';

interface ClaimOptions {
  owner: string;
  leaseMs: number;
  kinds: readonly string[];
  /**
   * Teams whose jobs are passed over this time (their render slots are all taken: claiming one would only
   * put it back); the service's own jobs (no team) are never passed over.
   */
  excludedTeams?: readonly string[];
}

/**
 * Claims the oldest due job of the given kinds: queued and due, or running with an expired lease (its
 * worker died), and skipped while `concurrency_limit` jobs with its concurrency key run with a live lease.
 * SQLite: one UPDATE … WHERE id = (SELECT …) statement, atomic because its writers are serialized.
 * PostgreSQL: see claimJobLocked.
 */
export async function claimJob(db: Db, clock: Clock, options: ClaimOptions): Promise<ClaimedJob | null> {
  if (options.kinds.length === 0) return null;
  if (isPostgres(db)) return claimJobLocked(db, clock, options);
  const row = await db
    .updateTable('jobs')
    .set(claimSet(clock, options))
    .where('id', '=', dueJobs(db, clock.now().toISOString(), options, []).select('j.id'))
    .returningAll()
    .executeTakeFirst();
  return row ? toClaimed(row, options.owner) : null;
}

type ClaimOutcome = { claimed: ClaimedJob } | { lost: string };

/** A claim loses a concurrency-key race this many times in a row before it waits for the next look. */
const CLAIM_RACE_RETRIES = 5;

/**
 * PostgreSQL runs claims at once (read committed), so one transaction per claim: the candidate is locked
 * with FOR UPDATE SKIP LOCKED (concurrent claimers take different rows instead of waiting on one), and a
 * keyed candidate's key is locked (advisory, until commit) and its running jobs counted again, so two
 * processes cannot both take the last slot of a key. A candidate that lost that race is passed over.
 */
async function claimJobLocked(db: Db, clock: Clock, options: ClaimOptions): Promise<ClaimedJob | null> {
  const lost: string[] = [];
  for (let round = 0; round < CLAIM_RACE_RETRIES; round++) {
    const outcome = await db.transaction().execute(async (trx): Promise<ClaimOutcome | null> => {
      const nowIso = clock.now().toISOString();
      const candidate = await skipLocked(
        trx,
        dueJobs(trx, nowIso, options, lost).select(['j.id', 'j.concurrency_key', 'j.concurrency_limit']),
      ).executeTakeFirst();
      if (!candidate) return null;
      if (candidate.concurrency_key !== null) {
        await lockKey(trx, `jobs.concurrency:${candidate.concurrency_key}`);
        const running = await runningWithKey(trx, candidate.concurrency_key, nowIso, candidate.id);
        if (running >= (candidate.concurrency_limit ?? 1)) return { lost: candidate.id };
      }
      const row = await trx
        .updateTable('jobs')
        .set(claimSet(clock, options))
        .where('id', '=', candidate.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { claimed: toClaimed(row, options.owner) };
    });
    if (outcome === null) return null;
    if ('claimed' in outcome) return outcome.claimed;
    lost.push(outcome.lost);
  }
  return null;
}

function claimSet(clock: Clock, options: ClaimOptions) {
  const now = clock.now();
  return {
    // The same status whether the job was due (claim) or its lease had run out (reclaim).
    status: TRANSITIONS.claim.to,
    lease_owner: options.owner,
    lease_until: new Date(now.getTime() + options.leaseMs).toISOString(),
    attempts: sql<number>`attempts + 1`,
    updated_at: now.toISOString(),
  };
}

/**
 * The due jobs of these kinds, oldest first, whose concurrency key (if any) has a free slot, but for the
 * excluded teams' jobs.
 */
function dueJobs(
  db: Db,
  nowIso: string,
  options: Pick<ClaimOptions, 'kinds' | 'excludedTeams'>,
  excluded: readonly string[],
) {
  const teams = options.excludedTeams ?? [];
  return db
    .selectFrom('jobs as j')
    .where('j.kind', 'in', options.kinds)
    .$if(excluded.length > 0, (q) => q.where('j.id', 'not in', excluded))
    .$if(teams.length > 0, (q) =>
      q.where((eb) => eb.or([eb('j.team_id', 'is', null), eb('j.team_id', 'not in', teams)])),
    )
    .where((eb) =>
      eb.or([
        eb.and([eb('j.status', 'in', movableFrom('claim')), eb('j.run_at', '<=', nowIso)]),
        eb.and([eb('j.status', 'in', movableFrom('reclaim')), eb('j.lease_until', '<=', nowIso)]),
      ]),
    )
    .where((eb) =>
      eb.or([
        eb('j.concurrency_key', 'is', null),
        eb(
          eb
            .selectFrom('jobs as r')
            .select((r) => r.fn.countAll<number>().as('n'))
            .whereRef('r.concurrency_key', '=', 'j.concurrency_key')
            .where('r.status', '=', 'running')
            .where('r.lease_until', '>', nowIso),
          '<',
          eb.ref('j.concurrency_limit'),
        ),
      ]),
    )
    .orderBy('j.run_at')
    .orderBy('j.created_at')
    .limit(1);
}

async function runningWithKey(db: Db, key: string, nowIso: string, except: string): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('concurrency_key', '=', key)
    .where('status', '=', 'running')
    .where('lease_until', '>', nowIso)
    .where('id', '!=', except)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The payload as stored: with the current trace's `traceparent` beside the kind's own fields (under a key
 * no payload schema has), so the trace travels with the row to whichever process claims it.
 */
function payloadJson(payload: unknown): string {
  const traceparent = currentTraceparent();
  const plain = traceparent && payload !== null && typeof payload === 'object' && !Array.isArray(payload);
  return JSON.stringify(plain ? { ...payload, [TRACE_KEY]: traceparent } : payload);
}

const TRACE_KEY = '$traceparent';

/** The stored payload with its `traceparent` taken out again (the kind's schema never sees it). */
function claimedPayload(json: string): { payload: unknown; traceparent?: string } {
  const payload = JSON.parse(json) as unknown;
  if (payload === null || typeof payload !== 'object' || !(TRACE_KEY in payload)) return { payload };
  const { [TRACE_KEY]: traceparent, ...rest } = payload as Record<string, unknown>;
  return typeof traceparent === 'string' ? { payload: rest, traceparent } : { payload: rest };
}

function toClaimed(row: Omit<JobsTable, 'attempts'> & { attempts: number }, owner: string): ClaimedJob {
  return {
    id: row.id,
    kind: row.kind,
    teamId: row.team_id,
    test: row.test === 1,
    ...claimedPayload(row.payload_json),
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
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
    .where('status', 'in', movableFrom('heartbeat'))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

class LeaseLost extends Error {}

/** What a lease-guarded transaction runs along with the job's own change (document state, outbox events…). */
export type Commit = (trx: Db) => Promise<void>;

/** The move that ends a running job in each final state a worker records. */
const FINISHING = {
  succeeded: 'succeed',
  failed: 'fail',
  canceled: 'drop',
} as const satisfies Record<string, JobTransition>;

/**
 * Finishes a job and runs `commit` in the same transaction, only while this worker still holds the lease:
 * the job's effects happen exactly once. False when the lease was lost.
 */
export async function finishJob(
  db: Db,
  clock: Clock,
  job: ClaimedJob,
  outcome: { status: keyof typeof FINISHING; error: string | null },
  commit?: Commit,
): Promise<boolean> {
  const now = clock.now().toISOString();
  const move = FINISHING[outcome.status];
  return guarded(db, commit, (trx) =>
    trx
      .updateTable('jobs')
      .set({
        status: TRANSITIONS[move].to,
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
      .where('status', 'in', movableFrom(move))
      .executeTakeFirst(),
  );
}

/**
 * Puts a job back to wait until `runAt`, with `commit` in the same lease-guarded transaction. A retry keeps
 * the attempt counted; a deferral (e.g. no free render slot) or a shutdown release gives it back.
 */
export async function requeueJob(
  db: Db,
  clock: Clock,
  job: ClaimedJob,
  options: { runAt: Date; error: string | null; countAttempt: boolean },
  commit?: Commit,
): Promise<boolean> {
  return guarded(db, commit, (trx) =>
    trx
      .updateTable('jobs')
      .set({
        status: TRANSITIONS.requeue.to,
        run_at: options.runAt.toISOString(),
        last_error: options.error,
        lease_owner: null,
        lease_until: null,
        updated_at: clock.now().toISOString(),
        ...(options.countAttempt ? {} : { attempts: sql<number>`attempts - 1` }),
      })
      .where('id', '=', job.id)
      .where('lease_owner', '=', job.owner)
      .where('status', 'in', movableFrom('requeue'))
      .executeTakeFirst(),
  );
}

async function guarded(
  db: Db,
  commit: Commit | undefined,
  write: (trx: Db) => Promise<{ numUpdatedRows: bigint }>,
): Promise<boolean> {
  try {
    await db.transaction().execute(async (trx) => {
      // The write comes first so SQLite takes the write lock at once (no deferred-upgrade SQLITE_BUSY).
      const result = await write(trx);
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
 * Cancels a job that has not started: queued → canceled. A running job is left alone (its handler decides
 * how it ends). True when it was canceled. Pass a transaction to cancel along with a larger change.
 */
export async function cancelJob(db: Db, clock: Clock, id: string): Promise<boolean> {
  return (await cancelWhere(db, clock, (q) => q.where('id', '=', id))) === 1;
}

/** Cancels the queued job of this kind and key, if any. True when one was canceled. */
export async function cancelJobByKey(db: Db, clock: Clock, kind: string, jobKey: string): Promise<boolean> {
  return (
    (await cancelWhere(db, clock, (q) => q.where('kind', '=', kind).where('job_key', '=', jobKey))) === 1
  );
}

/**
 * Cancels the still-queued jobs of `kind` among `jobKeys` in one UPDATE … RETURNING, and returns the keys
 * it canceled. A job a worker already claimed is not queued any more and is left to finish; on PostgreSQL
 * the UPDATE waits on a claimer's row lock and then sees the job running, so it never cancels a taken job.
 * Callers pass at most a chunk (src/storage/chunks.ts) of keys: one bound value each.
 */
export async function cancelJobsByKeys(
  db: Db,
  clock: Clock,
  kind: string,
  jobKeys: readonly string[],
): Promise<string[]> {
  if (jobKeys.length === 0) return [];
  const rows = await cancelUpdate(db, clock)
    .where('kind', '=', kind)
    .where('job_key', 'in', [...jobKeys])
    .returning('job_key')
    .execute();
  return rows.flatMap((row) => (row.job_key === null ? [] : [row.job_key]));
}

type JobsUpdate = ReturnType<typeof cancelUpdate>;

function cancelUpdate(db: Db, clock: Clock) {
  const now = clock.now().toISOString();
  return db
    .updateTable('jobs')
    .set({
      status: TRANSITIONS.cancel.to,
      payload_json: '{}',
      updated_at: now,
      finished_at: now,
      last_error: 'canceled',
    })
    .where('status', 'in', movableFrom('cancel'));
}

async function cancelWhere(db: Db, clock: Clock, filter: (q: JobsUpdate) => JobsUpdate): Promise<number> {
  const result = await filter(cancelUpdate(db, clock)).executeTakeFirst();
  return Number(result.numUpdatedRows);
}
