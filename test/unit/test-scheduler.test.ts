import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextJob, runScheduled } from '../../scripts/test-scheduler.mjs';

/** Runs `jobs` with a fake start that records what runs at once and ends each job when told to. */
function harness(jobs: { pass: string; cost: number; name: string }[], slots: number, limits = {}) {
  const started: string[] = [];
  const running = new Set<string>();
  let mostAtOnce = 0;
  const mostOfPass = new Map<string, number>();
  const finishers = new Map<string, () => void>();
  const done = runScheduled(jobs, {
    slots,
    limits,
    start: (job) =>
      new Promise<string>((resolve) => {
        started.push(job.name);
        running.add(job.name);
        mostAtOnce = Math.max(mostAtOnce, running.size);
        const ofPass = jobs.filter((j) => j.pass === job.pass && running.has(j.name)).length;
        mostOfPass.set(job.pass, Math.max(mostOfPass.get(job.pass) ?? 0, ofPass));
        finishers.set(job.name, () => {
          running.delete(job.name);
          resolve(`${job.name} done`);
        });
      }),
  });
  const finish = async (name: string) => {
    finishers.get(name)?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { done, started, finish, stats: () => ({ mostAtOnce, mostOfPass }) };
}

describe('one queue for both test passes (scripts/test-scheduler.mjs)', () => {
  it('starts the longest first, fills every slot, and keeps each pass under its limit', async () => {
    const jobs = [
      { pass: 'sqlite', cost: 5, name: 's5' },
      { pass: 'postgres', cost: 100, name: 'p100' },
      { pass: 'postgres', cost: 90, name: 'p90' },
      { pass: 'postgres', cost: 80, name: 'p80' },
      { pass: 'sqlite', cost: 50, name: 's50' },
      { pass: 'sqlite', cost: 20, name: 's20' },
    ];
    const run = harness(jobs, 3, { postgres: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(run.started, ['p100', 'p90', 's50'], 'the third PostgreSQL file waits for its pass');
    await run.finish('s50');
    assert.deepEqual(run.started.slice(3), ['s20'], 'a freed slot takes the longest job its pass allows');
    await run.finish('p100');
    assert.deepEqual(run.started.slice(4), ['p80']);
    for (const name of ['p90', 'p80', 's20']) await run.finish(name);
    assert.deepEqual(run.started.slice(5), ['s5']);
    await run.finish('s5');
    assert.deepEqual(
      await run.done,
      jobs.map((j) => `${j.name} done`),
      'results come back in job order',
    );
    assert.equal(run.stats().mostAtOnce, 3);
    assert.equal(run.stats().mostOfPass.get('postgres'), 2);
  });

  it('lets one pass use every slot once the other has nothing left', async () => {
    const jobs = [
      { pass: 'postgres', cost: 10, name: 'p' },
      ...[1, 2, 3, 4].map((n) => ({ pass: 'sqlite', cost: n, name: `s${n}` })),
    ];
    const run = harness(jobs, 4, { postgres: 2 });
    await run.finish('p');
    assert.deepEqual(run.started, ['p', 's4', 's3', 's2', 's1']);
    for (const name of ['s4', 's3', 's2', 's1']) await run.finish(name);
    await run.done;
    assert.equal(run.stats().mostOfPass.get('sqlite'), 4);
  });

  it('refuses a pass that may never start rather than waiting for ever', async () => {
    await assert.rejects(
      runScheduled([{ pass: 'postgres', cost: 1 }], {
        slots: 2,
        limits: { postgres: 0 },
        start: async () => 0,
      }),
      /no pass may start: postgres/,
    );
    assert.equal(nextJob([{ pass: 'a' }], new Map([['a', 1]]), { a: 1 }), undefined);
  });
});
