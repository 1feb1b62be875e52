import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Type } from 'typebox';
import { defineJobKind, jobInput, jobKind } from '../../../src/jobs/define-kind.js';
import { enqueueJob } from '../../../src/jobs/queue.js';
import { JobRegistry } from '../../../src/jobs/registry.js';
import { startWorkers, type Workers } from '../../../src/jobs/worker.js';
import { ManualClock } from '../../../src/shared/clock.js';
import type { Db } from '../../../src/storage/db.js';
import { databaseForBlock } from '../../helpers/database.js';

const COUNT_JOB = jobKind(
  'typed_count',
  Type.Object({ n: Type.Integer(), label: Type.Optional(Type.String()) }),
);

/** Payloads checked against their kind's schema when queued and when claimed (src/jobs/define-kind.ts). */
describe('typed job kinds (real database)', () => {
  let db: Db;
  const clock = new ManualClock();
  let workers: Workers | null = null;

  databaseForBlock('quire-typed-kinds-', (both) => ({ db } = both));
  afterEach(async () => {
    await workers?.stop(1_000);
    workers = null;
  });

  /** Runs COUNT_JOB's due jobs once; returns the payloads its handler and its abandon received. */
  async function runKind(): Promise<{ handled: unknown[]; abandoned: unknown[]; unreadable: unknown[] }> {
    const handled: unknown[] = [];
    const abandoned: unknown[] = [];
    const unreadable: unknown[] = [];
    const definition = defineJobKind({
      kind: COUNT_JOB,
      pool: 'light',
      handler: async (job) => {
        // Typed: no cast, and an integer at run time.
        handled.push(job.payload.n + 0);
        return { kind: 'succeeded' };
      },
      maxAttempts: 3,
      retryDelaysMs: [1_000],
      abandon: async (_trx, job) => void abandoned.push(job.payload),
      unreadable: async (_trx, payload, error) => void unreadable.push([payload, error.code]),
    });
    const registry = new JobRegistry();
    registry.register(definition.kind, definition.handler, definition.options);
    workers = startWorkers({
      db,
      clock,
      registry,
      pools: [{ name: 'typed', kinds: [definition.kind], concurrency: 2 }],
      pollMs: 60_000,
    });
    workers.wake();
    await workers.idle();
    return { handled, abandoned, unreadable };
  }

  const row = (id: string) =>
    db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('refuses a payload that does not match the schema when it is queued, naming the field', () => {
    assert.throws(
      () => jobInput(COUNT_JOB, { teamId: null, test: false, payload: { n: 'one' } as never }),
      /payload of a "typed_count" job does not match its schema \(\/n: /,
    );
  });

  it('hands the handler its typed payload; one failing its schema at claim fails the job with a code', async () => {
    const good = await enqueueJob(
      db,
      clock,
      jobInput(COUNT_JOB, { teamId: null, test: false, payload: { n: 41, label: 'x' } }),
    );
    // Written by older code or by hand: only the claim can find it wrong.
    const bad = await enqueueJob(db, clock, {
      kind: COUNT_JOB.name,
      teamId: null,
      test: false,
      payload: { label: 'no n' },
    });
    const { handled, abandoned, unreadable } = await runKind();
    assert.deepEqual(handled, [41], 'the handler ran for the good payload only');
    assert.deepEqual(abandoned, [], 'abandon is for typed payloads only');
    // The kind records what it can from the raw payload (the render job fails the document it names).
    assert.deepEqual(unreadable, [[{ label: 'no n' }, 'invalid_payload']]);
    assert.equal((await row(good.id)).status, 'succeeded');
    const failed = await row(bad.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.attempts, 1, 'not retried: no attempt could help');
    assert.match(
      failed.last_error ?? '',
      /^invalid_payload: the payload of a "typed_count" job does not match/,
    );
  });
});
