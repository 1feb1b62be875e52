import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enqueueJob } from '../../../src/jobs/queue.js';
import { type JobHandler, JobRegistry } from '../../../src/jobs/registry.js';
import { startWorkers, type Workers } from '../../../src/jobs/worker.js';
import { systemClock } from '../../../src/shared/clock.js';
import { type Db, openDatabase } from '../../../src/storage/db.js';
import { createTestDatabase, TEST_DATABASE_URL } from '../../helpers/database.js';
import { waitFor } from '../../helpers/wait.js';

const JOBS = 500;
const KEYED = 100;
const KEYS = 5;

/**
 * Two queue instances (each its own pg pool, so claims really run at once in PostgreSQL) on one database:
 * FOR UPDATE SKIP LOCKED hands each job to one of them, the key lock holds concurrency keys across both,
 * and NOTIFY wakes the instance that did not enqueue (its polling is a minute apart).
 */
describe('job claims on PostgreSQL from two queue instances', { skip: !TEST_DATABASE_URL }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const handles: Db[] = [];
  const workers: Workers[] = [];
  const runs = new Map<string, number>();
  const byInstance = [0, 0];
  const runningPerKey = new Map<string, number>();
  let maxPerKey = 0;

  before(async () => {
    database = await createTestDatabase();
    for (let i = 0; i < 2; i++) handles.push(await openDatabase('/nonexistent', database.url));
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.stop(5_000)));
    for (const db of handles) await db.destroy();
    await database.drop();
  });

  function handlerFor(instance: number): JobHandler {
    return async (job) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      byInstance[instance] = (byInstance[instance] ?? 0) + 1;
      const key = (job.payload as { key?: string }).key;
      if (key) {
        const now = (runningPerKey.get(key) ?? 0) + 1;
        runningPerKey.set(key, now);
        maxPerKey = Math.max(maxPerKey, now);
      }
      // Long enough for claims of both instances to overlap.
      await new Promise((resolve) => setTimeout(resolve, 3));
      if (key) runningPerKey.set(key, (runningPerKey.get(key) ?? 1) - 1);
      return { kind: 'succeeded' };
    };
  }

  it('runs each of 500 jobs exactly once, keyed ones one per key at a time, woken by NOTIFY', async () => {
    handles.forEach((db, instance) => {
      const registry = new JobRegistry();
      registry.register('pg_claim', handlerFor(instance), { maxAttempts: 1, backoff: () => 0 });
      workers.push(
        startWorkers({
          db,
          clock: systemClock,
          registry,
          pools: [{ name: 'p', kinds: ['pg_claim'], concurrency: 8 }],
          // Far apart: the jobs below are found through LISTEN/NOTIFY, not polling.
          pollMs: 120_000,
        }),
      );
    });
    // Both instances LISTEN before anything is queued (the listen connection opens asynchronously).
    assert.deepEqual(await Promise.all(workers.map((w) => w.listening)), [true, true]);
    const enqueuer = handles[0] as Db;
    const ids: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const keyed = i < KEYED;
      const job = await enqueuer.transaction().execute((trx) =>
        enqueueJob(trx, systemClock, {
          kind: 'pg_claim',
          teamId: null,
          test: false,
          payload: keyed ? { key: `key${i % KEYS}` } : {},
          ...(keyed ? { concurrency: { key: `key${i % KEYS}`, limit: 1 } } : {}),
        }),
      );
      ids.push(job.id);
    }
    await waitFor(
      'all jobs finished',
      async () => {
        const open = await enqueuer
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', 'in', ['queued', 'running'])
          .executeTakeFirstOrThrow();
        return open.n === 0 ? true : null;
      },
      240_000,
      200,
    );
    const rows = await enqueuer.selectFrom('jobs').select(['id', 'status', 'attempts']).execute();
    assert.equal(rows.length, JOBS);
    assert.deepEqual(new Set(rows.map((r) => r.status)), new Set(['succeeded']));
    assert.deepEqual(new Set(rows.map((r) => r.attempts)), new Set([1]));
    for (const id of ids) assert.equal(runs.get(id), 1, `job ${id} ran ${runs.get(id) ?? 0} times`);
    assert.equal(maxPerKey, 1, 'a concurrency key with limit 1 never ran two jobs at once');
    assert.ok(
      (byInstance[0] ?? 0) > 0 && (byInstance[1] ?? 0) > 0,
      `both instances claimed (${byInstance.join(' / ')}): the one that did not enqueue was woken by NOTIFY`,
    );
  });
});
