import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadPlans } from '../../../src/accounts/plans.js';
import { createTeam } from '../../../src/accounts/teams.js';
import { assertWithinJobLimits } from '../../../src/jobs/limits.js';
import { claimJob, enqueueJob, extendLease, finishJob, requeueJob } from '../../../src/jobs/queue.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { AppError } from '../../../src/shared/errors.js';
import type { Db } from '../../../src/storage/db.js';
import { databaseForBlock } from '../../helpers/database.js';

describe('durable job queue (real SQLite)', () => {
  let db: Db;
  const clock = new ManualClock();
  const claim = (owner: string, leaseMs = 10_000) => claimJob(db, clock, { owner, leaseMs, kinds: ['t'] });

  databaseForBlock('quire-queue-', (both) => ({ db } = both));

  it('gives a job to one worker at a time and back to another once its lease expired', async () => {
    const { id } = await enqueueJob(db, clock, { kind: 't', teamId: null, test: false, payload: { a: 1 } });
    const [a, b] = await Promise.all([claim('A'), claim('B')]);
    assert.equal([a, b].filter(Boolean).length, 1, 'exactly one claim wins');
    const held = a ?? b;
    assert.ok(held);
    assert.equal(held.id, id);
    assert.deepEqual(held.payload, { a: 1 });
    assert.equal(held.attempts, 1);
    clock.advance(9_000);
    assert.equal(await claim('C'), null, 'lease still valid');
    assert.equal(await extendLease(db, clock, held, 10_000), true, 'heartbeat');
    clock.advance(9_000);
    assert.equal(await claim('C'), null, 'heartbeat kept it');
    clock.advance(1_001);
    const taken = await claim('C');
    assert.equal(taken?.id, id, 'expired lease: claimed again');
    assert.equal(taken?.attempts, 2);
    let committed = 0;
    const stale = await finishJob(db, clock, held, { status: 'succeeded', error: null }, async () => {
      committed += 1;
    });
    assert.equal(stale, false, 'the old owner cannot finish it');
    assert.ok(taken);
    assert.equal(
      await finishJob(db, clock, taken, { status: 'succeeded', error: null }, async () => {
        committed += 1;
      }),
      true,
    );
    assert.equal(committed, 1, 'effects ran exactly once');
    clock.advance(60_000);
    assert.equal(await claim('D'), null, 'finished jobs are never claimed');
  });

  it('honours run_at for backoff; a deferral gives the attempt back', async () => {
    await enqueueJob(db, clock, { kind: 't', teamId: null, test: false, payload: {} });
    const job = await claim('A');
    assert.ok(job);
    assert.equal(
      await requeueJob(db, clock, job, {
        runAt: new Date(clock.now().getTime() + 30_000),
        error: 'busy',
        countAttempt: true,
      }),
      true,
    );
    clock.advance(29_999);
    assert.equal(await claim('A'), null);
    clock.advance(1);
    const again = await claim('A');
    assert.equal(again?.attempts, 2);
    assert.ok(again);
    await requeueJob(db, clock, again, { runAt: clock.now(), error: null, countAttempt: false });
    const third = await claim('A');
    assert.equal(third?.attempts, 2, 'deferral not counted');
    assert.ok(third);
    await finishJob(db, clock, third, { status: 'failed', error: 'x' });
  });

  it('refuses work over open_jobs and test_jobs_per_day with details and no Retry-After', async () => {
    const plans = loadPlans(null);
    const plan = { ...plans.free, open_jobs: 2, test_jobs_per_day: 3 };
    const team = await createTeam(db, clock, { name: 'Limits', plan: 'free' });
    const queue = (test: boolean) =>
      db.transaction().execute(async (trx) => {
        await enqueueJob(trx, clock, { kind: 'other', teamId: team.id, test, payload: {} });
        await assertWithinJobLimits(trx, clock, { plan, teamId: team.id, test });
      });
    await queue(false);
    await queue(false);
    const refused = await queue(false).catch((e: unknown) => e);
    assert.ok(refused instanceof AppError);
    assert.equal(refused.code, 'rate_limited');
    assert.deepEqual(refused.details, { limit: 'open_jobs', max: 2 });
    assert.deepEqual(refused.headers, {});
    const open = await db.selectFrom('jobs').select('id').where('team_id', '=', team.id).execute();
    assert.equal(open.length, 2, 'the refused job was rolled back');
    await db.updateTable('jobs').set({ status: 'succeeded' }).where('team_id', '=', team.id).execute();
    for (let i = 0; i < 3; i += 1) {
      await queue(true);
      await db.updateTable('jobs').set({ status: 'succeeded' }).where('team_id', '=', team.id).execute();
    }
    const tooMany = await queue(true).catch((e: unknown) => e);
    assert.ok(tooMany instanceof AppError);
    assert.deepEqual(tooMany.details, { limit: 'test_jobs_per_day', max: 3 });
    clock.advance(24 * 3_600_000 + 1);
    await queue(true);
  });
});
