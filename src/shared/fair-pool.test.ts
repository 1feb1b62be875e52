import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, isAppError } from './errors.js';
import { FairPool, type QueueBounds, type TaskFailure, type TaskRunner } from './fair-pool.js';
import { markStarted, TaskDeadline } from './task-deadline.js';

interface Task {
  name: string;
  /** How long the task works. */
  ms: number;
}

/**
 * A stand-in for a DeadlinePool whose tasks are slow: each sleeps its `ms` under a real TaskDeadline, started
 * by its "worker" at once, and records the order tasks started in and the limit each was given.
 */
class SleepingRunner implements TaskRunner<Task, string> {
  readonly started: string[] = [];
  readonly limits = new Map<string, number>();
  running = 0;
  peak = 0;

  async run(task: Task, limitMs: number, failure: TaskFailure): Promise<string> {
    const deadline = new TaskDeadline(limitMs);
    markStarted(deadline.stamp);
    this.started.push(task.name);
    this.limits.set(task.name, limitMs);
    this.running += 1;
    this.peak = Math.max(this.peak, this.running);
    try {
      await sleep(task.ms, undefined, { signal: deadline.signal });
      return task.name;
    } catch (err) {
      throw failure(err, deadline);
    } finally {
      this.running -= 1;
      deadline.clear();
    }
  }

  async close(): Promise<void> {}
}

/** What a pool's caller turns a stopped task into: the file's fault. */
const fileTooSlow: TaskFailure = (err, deadline) =>
  deadline.expired ? new AppError('invalid_request', 'The file took too long.') : err;

function pool(threads: number, bounds?: QueueBounds) {
  const runner = new SleepingRunner();
  return { runner, fair: new FairPool(runner, { threads, bounds, work: 'reading test files' }) };
}

/** The error a promise rejects with (it must reject). */
async function refusal(work: Promise<unknown>): Promise<AppError> {
  const err = await work.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(isAppError(err), String(err));
  return err;
}

const TASK_MS = 200;
const LIMIT_MS = 10_000;

describe('FairPool: a worker pool shared fairly between teams', () => {
  it("one team's flood leaves a thread to another team, whose task starts at once; never more than `threads` run", async () => {
    const { runner, fair } = pool(2);
    const flood = Array.from({ length: 8 }, (_, i) =>
      fair.run('a', { name: `a${i + 1}`, ms: TASK_MS }, LIMIT_MS, fileTooSlow),
    );
    await sleep(20);
    const sent = performance.now();
    const b = await fair.run('b', { name: 'b1', ms: TASK_MS }, LIMIT_MS, fileTooSlow);
    const waited = performance.now() - sent;
    assert.equal(b, 'b1');
    // a holds at most one of the two threads, so b took the other at once, ahead of a's seven waiting
    // tasks (a FIFO queue would have run them first).
    assert.deepEqual(runner.started.slice(0, 2), ['a1', 'b1']);
    // b's own task length only: far from the four task lengths a FIFO queue would take.
    assert.ok(waited < TASK_MS + 300, `b answered after ${waited.toFixed(0)} ms`);
    assert.deepEqual((await Promise.all(flood)).length, 8);
    assert.equal(runner.peak, 2);
  });

  it('a full queue refuses with service_busy and Retry-After: per team first, then for the whole pool', async () => {
    const { fair } = pool(1, { total: 3, perTeam: 2 });
    const accepted = [
      fair.run('a', { name: 'a1', ms: TASK_MS }, LIMIT_MS, fileTooSlow), // runs
      fair.run('a', { name: 'a2', ms: 1 }, LIMIT_MS, fileTooSlow),
      fair.run('a', { name: 'a3', ms: 1 }, LIMIT_MS, fileTooSlow),
    ];
    const perTeam = await refusal(fair.run('a', { name: 'a4', ms: 1 }, LIMIT_MS, fileTooSlow));
    assert.equal(perTeam.code, 'service_busy');
    assert.equal(perTeam.status, 503);
    assert.deepEqual(perTeam.details, { limit: 'queued_per_team', max: 2 });
    assert.equal(perTeam.headers['retry-after'], '1');
    accepted.push(fair.run('b', { name: 'b1', ms: 1 }, LIMIT_MS, fileTooSlow));
    const total = await refusal(fair.run('c', { name: 'c1', ms: 1 }, LIMIT_MS, fileTooSlow));
    assert.equal(total.code, 'service_busy');
    assert.deepEqual(total.details, { limit: 'queued', max: 3 });
    assert.equal(total.headers['retry-after'], '1');
    assert.deepEqual(await Promise.all(accepted), ['a1', 'a2', 'a3', 'b1']);
  });

  it('time spent waiting counts against the limit: a task that cannot start within it is refused as service_busy when it passes', async () => {
    const { runner, fair } = pool(1);
    const running = fair.run('a', { name: 'a1', ms: 3 * TASK_MS }, LIMIT_MS, fileTooSlow);
    const sent = performance.now();
    const err = await refusal(fair.run('b', { name: 'b1', ms: 1 }, TASK_MS / 2, fileTooSlow));
    const waited = performance.now() - sent;
    assert.equal(err.code, 'service_busy');
    assert.match(err.message, /busy reading test files: this one waited 0\.1 s, its whole time limit/);
    assert.deepEqual(err.details, { limit: 'queue_wait_ms', max: TASK_MS / 2 });
    assert.ok(waited < TASK_MS + 150, `refused after ${waited.toFixed(0)} ms, not when a1 finished`);
    assert.equal(await running, 'a1');
    assert.deepEqual(runner.started, ['a1'], 'b1 never reached a worker');
  });

  it('a task that started with less than half its limit left is service_busy when stopped; one that had the limit to itself is the file’s fault', async () => {
    const { runner, fair } = pool(1);
    // Margins wide enough for a loaded machine: a1 must end after b1's half limit (500 ms) and before its whole
    // limit (1 s); with 150 of 200 ms, a1 running 50 ms late under load made b1's wait the whole limit.
    const first = fair.run('a', { name: 'a1', ms: 700 }, LIMIT_MS, fileTooSlow);
    // b1 waits ~700 ms of its 1,000, gets what is left and runs out of it: the pool's fault.
    const late = await refusal(fair.run('b', { name: 'b1', ms: 5_000 }, 1_000, fileTooSlow));
    assert.equal(late.code, 'service_busy');
    assert.match(late.message, /waited 0\.\d s for a free worker and ran out of its 1 s limit/);
    assert.ok((runner.limits.get('b1') ?? 0) <= 1_000 - 500, `b1 was given ${runner.limits.get('b1')} ms`);
    await first;
    // Alone, the same slow task has the whole limit and is the file's fault.
    const alone = await refusal(fair.run('b', { name: 'b2', ms: 5_000 }, 200, fileTooSlow));
    assert.equal(alone.code, 'invalid_request');
    // The whole limit, less the moment between the call and the start (a millisecond went there under load).
    const given = runner.limits.get('b2') ?? 0;
    assert.ok(given > 200 - 20 && given <= 200, `b2 was given ${given} ms`);
  });

  it('close refuses the waiting tasks with service_busy and lets the running one finish', async () => {
    const { fair } = pool(1);
    const running = fair.run('a', { name: 'a1', ms: TASK_MS }, LIMIT_MS, fileTooSlow);
    const waiting = fair.run('b', { name: 'b1', ms: 1 }, LIMIT_MS, fileTooSlow);
    await fair.close();
    assert.equal((await refusal(waiting)).code, 'service_busy');
    assert.equal(await running, 'a1');
  });
});
