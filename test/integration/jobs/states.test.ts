import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type ClaimedJob,
  cancelJob,
  claimJob,
  enqueueJob,
  extendLease,
  finishJob,
  requeueJob,
} from '../../../src/jobs/queue.js';
import {
  JOB_STATES,
  type JobStatus,
  type JobTransition,
  mayMove,
  TRANSITIONS,
} from '../../../src/jobs/states.js';
import { ManualClock } from '../../../src/shared/clock.js';
import type { Db } from '../../../src/storage/db.js';
import { databaseForBlock } from '../../helpers/database.js';

const OWNER = 'holder';
const HOUR = 3_600_000;

/**
 * Each move of a stored job, made by the queue function that makes it, on a job of its own kind (so a claim
 * finds no other). The claims see one job either due (claim) or with its lease run out (reclaim), not both.
 */
const MOVES: Record<
  Exclude<JobTransition, 'enqueue'>,
  { due: boolean; leaseLive: boolean; run(db: Db, clock: ManualClock, job: ClaimedJob): Promise<unknown> }
> = {
  claim: {
    due: true,
    leaseLive: true,
    run: (db, clock, job) => claimJob(db, clock, { owner: 'other', leaseMs: HOUR, kinds: [job.kind] }),
  },
  reclaim: {
    due: false,
    leaseLive: false,
    run: (db, clock, job) => claimJob(db, clock, { owner: 'other', leaseMs: HOUR, kinds: [job.kind] }),
  },
  heartbeat: { due: false, leaseLive: true, run: (db, clock, job) => extendLease(db, clock, job, HOUR) },
  requeue: {
    due: false,
    leaseLive: true,
    run: (db, clock, job) =>
      requeueJob(db, clock, job, { runAt: clock.now(), error: null, countAttempt: true }),
  },
  succeed: {
    due: false,
    leaseLive: true,
    run: (db, clock, job) => finishJob(db, clock, job, { status: 'succeeded', error: null }),
  },
  fail: {
    due: false,
    leaseLive: true,
    run: (db, clock, job) => finishJob(db, clock, job, { status: 'failed', error: 'internal_error: x' }),
  },
  drop: {
    due: false,
    leaseLive: true,
    run: (db, clock, job) => finishJob(db, clock, job, { status: 'canceled', error: 'gone' }),
  },
  cancel: { due: true, leaseLive: true, run: (db, clock, job) => cancelJob(db, clock, job.id) },
};

describe('job states: every queue move from every state (real database)', () => {
  let db: Db;
  const clock = new ManualClock();
  let kinds = 0;

  databaseForBlock('quire-job-states-', (both) => ({ db } = both));

  /** A job in `status`, held by OWNER, written as a queued one and set there directly (the starting point). */
  async function jobIn(status: JobStatus, move: (typeof MOVES)[keyof typeof MOVES]): Promise<ClaimedJob> {
    kinds += 1;
    const kind = `states-${kinds}`;
    const { id } = await enqueueJob(db, clock, { kind, teamId: null, test: false, payload: {} });
    const now = clock.now().getTime();
    await db
      .updateTable('jobs')
      .set({
        status,
        attempts: 1,
        lease_owner: OWNER,
        lease_until: new Date(now + (move.leaseLive ? HOUR : -1)).toISOString(),
        run_at: new Date(now + (move.due ? -1 : HOUR)).toISOString(),
      })
      .where('id', '=', id)
      .execute();
    return {
      id,
      kind,
      teamId: null,
      test: false,
      payload: {},
      attempts: 1,
      maxAttempts: null,
      createdAt: clock.now().toISOString(),
      owner: OWNER,
    };
  }

  const statusOf = async (id: string) =>
    (await db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  for (const [name, move] of Object.entries(MOVES) as [
    keyof typeof MOVES,
    (typeof MOVES)[keyof typeof MOVES],
  ][]) {
    for (const from of JOB_STATES) {
      const allowed = mayMove(name, from);
      it(`${name} from ${from}: ${allowed ? `moves it to ${TRANSITIONS[name].to}` : 'is refused, the job unchanged'}`, async () => {
        const job = await jobIn(from, move);
        const result = await move.run(db, clock, job);
        assert.equal(await statusOf(job.id), allowed ? TRANSITIONS[name].to : from);
        // Each function says whether it moved the job: true/false, or the claimed job/null.
        assert.equal(typeof result === 'boolean' ? result : result !== null, allowed, 'reported as made');
      });
    }
  }
});
