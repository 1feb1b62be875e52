import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  cancelJob,
  cancelJobByKey,
  claimJob,
  type EnqueueInput,
  enqueueJob,
  finishJob,
} from '../../../src/jobs/queue.js';
import { type JobHandler, type JobKindOptions, JobRegistry } from '../../../src/jobs/registry.js';
import { sweepFinishedJobs } from '../../../src/jobs/retention.js';
import { startWorkers, type Workers } from '../../../src/jobs/worker.js';
import { ManualClock } from '../../../src/shared/clock.js';
import type { Db } from '../../../src/storage/db.js';
import { databaseForBlock, openTestDatabase } from '../../helpers/database.js';
import { waitUntil } from '../../helpers/wait.js';

/** Retry policy, deduplication, concurrency caps, cancel and shutdown of the job queue, on a real SQLite file. */
describe('job queue policy (real SQLite)', () => {
  let dataDir: string;
  let db: Db;
  const clock = new ManualClock();
  let workers: Workers | null = null;
  let kindCounter = 0;

  databaseForBlock('quire-policy-', (both) => ({ dataDir, db } = both));
  afterEach(async () => {
    await workers?.stop(1_000);
    workers = null;
  });

  /** A fresh kind per test, so jobs of earlier tests never interfere. */
  function start(handler: JobHandler, options: JobKindOptions): { kind: string; run(): Promise<void> } {
    kindCounter += 1;
    const kind = `k${kindCounter}`;
    const registry = new JobRegistry();
    registry.register(kind, handler, options);
    const started = startWorkers({
      db,
      clock,
      registry,
      pools: [{ name: 'test', kinds: [kind], concurrency: 2 }],
      pollMs: 60_000,
      leaseMs: 10_000,
    });
    workers = started;
    return {
      kind,
      async run() {
        started.wake();
        await started.idle();
      },
    };
  }

  const queue = (kind: string, extra: Partial<EnqueueInput> = {}) =>
    enqueueJob(db, clock, { kind, teamId: null, test: false, payload: {}, ...extra });
  const row = (id: string) =>
    db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it("applies the kind's backoff between attempts and stops at maxAttempts; the commit learns each decision", async () => {
    const decisions: Array<number | null> = [];
    const t0 = clock.now().getTime();
    const { kind, run } = start(
      async () => ({
        kind: 'failed',
        error: { code: 'service_busy', message: 'down' },
        retryable: true,
        commit: async (_trx, next) => {
          decisions.push(next.retryAt ? next.retryAt.getTime() - t0 : null);
        },
      }),
      { maxAttempts: 3, backoff: (attempt) => attempt * 10_000 },
    );
    const { id } = await queue(kind);
    await run();
    assert.deepEqual(decisions, [10_000]);
    clock.advance(9_999);
    await run();
    assert.equal(decisions.length, 1, 'not before the backoff');
    clock.advance(1);
    await run();
    assert.deepEqual(decisions, [10_000, 30_000], 'second wait: backoff(2) = 20 s');
    clock.advance(20_000);
    await run();
    assert.deepEqual(decisions, [10_000, 30_000, null], 'third attempt is the last');
    clock.advance(3_600_000);
    await run();
    const done = await row(id);
    assert.equal(done.status, 'failed');
    assert.equal(done.attempts, 3);
    assert.equal(done.last_error, 'service_busy: down', 'the code, then the message');
  });

  it('a per-job max_attempts overrides the kind; a non-retryable failure is final at once', async () => {
    let calls = 0;
    const { kind, run } = start(
      async (job) => {
        calls += 1;
        const error = { code: 'internal_error', message: 'no' } as const;
        return { kind: 'failed', error, retryable: (job.payload as { retry: boolean }).retry };
      },
      { maxAttempts: 5, backoff: () => 1_000 },
    );
    const single = await queue(kind, { maxAttempts: 1, payload: { retry: true } });
    const fatal = await queue(kind, { payload: { retry: false } });
    await run();
    clock.advance(60_000);
    await run();
    assert.equal(calls, 2);
    assert.equal((await row(single.id)).status, 'failed');
    assert.equal((await row(fatal.id)).status, 'failed');
  });

  it('a handler that throws is retried with the backoff, then given up through the kind’s abandon', async () => {
    const abandoned: string[] = [];
    const { kind, run } = start(
      async () => {
        throw new Error('bug');
      },
      {
        maxAttempts: 2,
        backoff: () => 5_000,
        abandon: async (_trx, job, error) => {
          abandoned.push(`${job.id}:${error.code}:${error.message}`);
        },
      },
    );
    const { id } = await queue(kind);
    await run();
    assert.equal((await row(id)).status, 'queued');
    clock.advance(5_000);
    await run();
    assert.deepEqual(abandoned, [`${id}:internal_error:bug`]);
    assert.equal((await row(id)).status, 'failed');
  });

  it('gives up a job whose workers died during every attempt without running it again', async () => {
    let calls = 0;
    const abandoned: string[] = [];
    kindCounter += 1;
    const kind = `k${kindCounter}`;
    const { id } = await queue(kind);
    for (let i = 0; i < 2; i += 1) {
      // A worker claims it and dies: the lease runs out.
      assert.ok(await claimJob(db, clock, { owner: `dead-${i}`, leaseMs: 1_000, kinds: [kind] }));
      clock.advance(1_001);
    }
    const registry = new JobRegistry();
    registry.register(
      kind,
      async () => {
        calls += 1;
        return { kind: 'succeeded' };
      },
      { maxAttempts: 2, backoff: () => 0, abandon: async (_trx, job) => void abandoned.push(job.id) },
    );
    const started = startWorkers({
      db,
      clock,
      registry,
      pools: [{ name: 't', kinds: [kind], concurrency: 1 }],
    });
    workers = started;
    started.wake();
    await started.idle();
    assert.equal(calls, 0, 'a third attempt is not made');
    assert.deepEqual(abandoned, [id]);
    const done = await row(id);
    assert.equal(done.status, 'failed');
    assert.match(done.last_error ?? '', /^worker_lost: .*worker stopped/);
  });

  it('deduplicates by job key per kind while the job exists, finished or not', async () => {
    const a = await queue('dedup', { jobKey: 'order-1' });
    const again = await queue('dedup', { jobKey: 'order-1', payload: { other: true } });
    assert.deepEqual(again, { id: a.id, created: false });
    const otherKind = await queue('dedup-2', { jobKey: 'order-1' });
    assert.equal(otherKind.created, true);
    const [x, y] = await Promise.all([
      queue('dedup', { jobKey: 'order-2' }),
      queue('dedup', { jobKey: 'order-2' }),
    ]);
    assert.equal(x.id, y.id, 'racing enqueues make one job');
    const claimed = await claimJob(db, clock, { owner: 'w', leaseMs: 1_000, kinds: ['dedup'] });
    assert.equal(claimed?.id, a.id);
    assert.ok(claimed);
    await finishJob(db, clock, claimed, { status: 'succeeded', error: null });
    assert.deepEqual(
      await queue('dedup', { jobKey: 'order-1' }),
      { id: a.id, created: false },
      'finished: still',
    );
    clock.advance(3 * 24 * 3_600_000);
    await sweepFinishedJobs(db, clock);
    const fresh = await queue('dedup', { jobKey: 'order-1' });
    assert.equal(fresh.created, true, 'swept: the key is free again');
    assert.notEqual(fresh.id, a.id);
  });

  it('skips a job while its concurrency key has `limit` jobs running with a live lease', async () => {
    const conc = { key: 'endpoint-a', limit: 2 };
    const jobs = [];
    for (let i = 0; i < 3; i += 1) jobs.push(await queue('capped', { concurrency: conc }));
    const other = await queue('capped', { concurrency: { key: 'endpoint-b', limit: 2 } });
    const claim = (owner: string) => claimJob(db, clock, { owner, leaseMs: 10_000, kinds: ['capped'] });
    const first = await claim('w1');
    const second = await claim('w2');
    assert.deepEqual([first?.id, second?.id], [jobs[0]?.id, jobs[1]?.id]);
    assert.equal((await claim('w3'))?.id, other.id, 'another key is not held up');
    assert.equal(await claim('w4'), null, 'the third of endpoint-a waits');
    assert.ok(first);
    await finishJob(db, clock, first, { status: 'succeeded', error: null });
    assert.equal((await claim('w5'))?.id, jobs[2]?.id, 'a place came free');
    clock.advance(10_001);
    // Leases expired (their workers died): they no longer hold places, and are claimed again themselves.
    const retaken = [await claim('w6'), await claim('w7'), await claim('w8')].map((j) => j?.id ?? null);
    assert.equal(retaken.filter(Boolean).length, 3);
  });

  it('holds the concurrency cap across separate workers on separate database connections', async () => {
    kindCounter += 1;
    const kind = `k${kindCounter}`;
    const other = await openTestDatabase(dataDir);
    let now = 0;
    let max = 0;
    const release: Array<() => void> = [];
    const handler: JobHandler = async () => {
      now += 1;
      max = Math.max(max, now);
      await new Promise<void>((resolve) => release.push(resolve));
      now -= 1;
      return { kind: 'succeeded' };
    };
    const sets = [db, other].map((handle) => {
      const registry = new JobRegistry();
      registry.register(kind, handler, { maxAttempts: 1, backoff: () => 0 });
      return startWorkers({
        db: handle,
        clock,
        registry,
        pools: [{ name: 'p', kinds: [kind], concurrency: 4 }],
        pollMs: 20,
      });
    });
    const ids = [];
    for (let i = 0; i < 6; i += 1) ids.push((await queue(kind, { concurrency: { key: 'ep', limit: 2 } })).id);
    for (const set of sets) set.wake();
    let done = 0;
    while (done < 6) {
      await new Promise((resolve) => setTimeout(resolve, 60));
      const next = release.shift();
      if (next) {
        next();
        done += 1;
      }
    }
    await Promise.all(sets.map((set) => set.stop(1_000)));
    await other.destroy();
    assert.equal(max, 2, 'never more than 2 at once, though 8 workers were free');
    const rows = await db.selectFrom('jobs').select('status').where('kind', '=', kind).execute();
    assert.deepEqual(new Set(rows.map((r) => r.status)), new Set(['succeeded']));
  });

  it('runs `ahead` jobs beyond its concurrency, and claims a team whose job was deferred (no free slot) only once one of its jobs ends', async () => {
    kindCounter += 1;
    const kind = `k${kindCounter}`;
    // Team A may run 2 at once, as a team's render slots; a third is deferred, as the render job defers.
    const runningOf = new Map<string, number>();
    const started: string[] = [];
    const release: Array<() => void> = [];
    let deferrals = 0;
    const handler: JobHandler = async (job) => {
      const team = job.teamId as string;
      if (team === 'A' && (runningOf.get(team) ?? 0) >= 2) {
        deferrals += 1;
        return { kind: 'defer', delayMs: 60_000 };
      }
      runningOf.set(team, (runningOf.get(team) ?? 0) + 1);
      started.push(team);
      await new Promise<void>((resolve) => release.push(resolve));
      runningOf.set(team, (runningOf.get(team) ?? 1) - 1);
      return { kind: 'succeeded' };
    };
    const registry = new JobRegistry();
    registry.register(kind, handler, { maxAttempts: 1, backoff: () => 0 });
    const pool = startWorkers({
      db,
      clock,
      registry,
      // Three places: two workers and one ahead.
      pools: [{ name: 'p', kinds: [kind], concurrency: 2, ahead: 1 }],
      pollMs: 60_000,
    });
    workers = pool;
    const byTeam = (teamId: string) => queue(kind, { teamId });
    for (let i = 0; i < 5; i += 1) await byTeam('A');
    await byTeam('B');
    pool.wake();
    // A's first two run, its third is deferred, and the third place goes to B's job behind A's others.
    await waitUntil('A, A and B running', async () => started.join() === 'A,A,B');
    assert.equal(deferrals, 1);
    await byTeam('B');
    release[2]?.();
    // B's job ended: its place goes past A's two older due jobs (both A's slots are still held) to B's next.
    await waitUntil('B started again', async () => started.join() === 'A,A,B,B');
    assert.equal(deferrals, 1, "A's jobs were not claimed (and deferred) while its slots were taken");
    release[0]?.();
    // One of A's jobs ended: A's next due job is claimed and runs.
    await waitUntil("A's next job running", async () => started.join() === 'A,A,B,B,A');
    assert.equal(deferrals, 1);
    for (const done of release) done();
  });

  it('cancels queued jobs by id or key, never a running one', async () => {
    const a = await queue('cancel');
    const b = await queue('cancel', { jobKey: 'batch-1/item-3' });
    const c = await queue('cancel');
    const running = await claimJob(db, clock, { owner: 'w', leaseMs: 10_000, kinds: ['cancel'] });
    assert.equal(running?.id, a.id);
    assert.equal(await cancelJob(db, clock, a.id), false, 'running: left to its handler');
    assert.equal(await cancelJobByKey(db, clock, 'cancel', 'batch-1/item-3'), true);
    assert.equal(await cancelJob(db, clock, c.id), true);
    assert.equal(await cancelJob(db, clock, c.id), false, 'already canceled');
    assert.equal((await row(b.id)).status, 'canceled');
    assert.equal(await claimJob(db, clock, { owner: 'w', leaseMs: 10_000, kinds: ['cancel'] }), null);
  });

  it('stop(grace) lets quick jobs finish and puts a job still running back to queued, attempt not counted', async () => {
    let aborted = false;
    const { kind, run } = start(
      async (job, ctx) => {
        if ((job.payload as { slow: boolean }).slow) {
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
          aborted = true;
          return {
            kind: 'failed',
            error: { code: 'internal_error', message: 'interrupted' },
            retryable: false,
          };
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { kind: 'succeeded' };
      },
      { maxAttempts: 3, backoff: () => 60_000 },
    );
    const slow = await queue(kind, { payload: { slow: true } });
    const quick = await queue(kind, { payload: { slow: false } });
    const current = workers;
    assert.ok(current);
    void run();
    while ((await row(quick.id)).status !== 'running' || (await row(slow.id)).status !== 'running') {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await current.stop(300);
    workers = null;
    assert.equal(aborted, true, 'the handler was told to stop');
    assert.equal((await row(quick.id)).status, 'succeeded', 'finished within the grace');
    const back = await row(slow.id);
    assert.deepEqual(
      { status: back.status, attempts: back.attempts, lease: back.lease_owner },
      { status: 'queued', attempts: 0, lease: null },
    );
    assert.ok(Date.parse(back.run_at) <= clock.now().getTime(), 'due at once for the next process');
    const next = await claimJob(db, clock, { owner: 'restarted', leaseMs: 1_000, kinds: [kind] });
    assert.equal(next?.id, slow.id, 'claimed at once, not after the lease would have run out');
  });
});
