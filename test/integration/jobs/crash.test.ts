import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadPlans } from '../../../src/accounts/plans.js';
import { createTeam } from '../../../src/accounts/teams.js';
import { systemClock } from '../../../src/shared/clock.js';
import type { Db } from '../../../src/storage/db.js';
import { loadServerSecret } from '../../../src/storage/server-secret.js';
import { insertEndpoint } from '../../../src/webhooks/endpoints.js';
import { createSecretBox } from '../../../src/webhooks/secret-box.js';
import { databaseForBlock, testDatabaseUrlOf } from '../../helpers/database.js';
import { waitUntil } from '../../helpers/wait.js';
import { answer, type Receiver, startReceiver } from '../../helpers/webhook-receiver.js';
import { crashProduction } from './crash-production.js';

const HERE = fileURLToPath(import.meta.url);
/** Run compiled (scripts/compile-tests.mjs): the worker's compiled sibling, with no TypeScript loader to start. */
const COMPILED = HERE.endsWith('.js');
const WORKER = path.join(path.dirname(HERE), COMPILED ? 'crash-worker.js' : 'crash-worker.ts');
const RENDERS = 12;

/** Every worker spawnWorker started: the block's `after` kills any still running. */
const children: ChildProcess[] = [];

function spawnWorker(dataDir: string, mode: 'hang' | 'run'): ChildProcess {
  const child = spawn(process.execPath, [...(COMPILED ? [] : ['--import', 'tsx']), WORKER, dataDir, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // On the PostgreSQL pass the worker joins this test's database.
    env: { ...process.env, QUIRE_DATABASE_URL: testDatabaseUrlOf(dataDir) ?? '' },
  });
  children.push(child);
  return child;
}

/** How often each event id reached one receiver path. */
function receiptsOn(rx: Receiver, hookPath: string): Map<string, number> {
  const times = new Map<string, number>();
  for (const r of rx.received.filter((x) => x.path === hookPath)) {
    const id = String(r.headers['quire-event-id']);
    times.set(id, (times.get(id) ?? 0) + 1);
  }
  return times;
}

describe('crash safety of the one job queue (renders and webhook deliveries)', () => {
  let dataDir: string;
  let db: Db;
  let rx: Receiver;

  // Registered ahead of the database's hooks, so no worker is left using it when it is removed.
  after(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });
  databaseForBlock('quire-crash-', (both) => ({ dataDir, db } = both));
  before(async () => {
    rx = await startReceiver();
  });
  after(async () => rx.close());

  const statusCounts = async (table: 'jobs' | 'documents' | 'webhook_deliveries', where = '') => {
    const rows = await db
      .selectFrom(table)
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .$if(where !== '', (q) => q.where('status', '=', where as never))
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  };

  it('kill -9 with renders running and queued and deliveries in flight and waiting: nothing lost, no render twice, a delivery repeated only if its attempt was cut off', async () => {
    const team = await createTeam(db, systemClock, { name: 'Crash', plan: 'growth' });
    const box = createSecretBox(loadServerSecret(dataDir));
    for (const hookPath of ['/ok', '/slow']) {
      await insertEndpoint(db, systemClock, box, {
        teamId: team.id,
        mode: 'live',
        url: rx.url(hookPath),
        events: ['pdf.created'],
        description: null,
      });
    }
    const plans = loadPlans(null);
    const production = crashProduction(db, dataDir, false);
    for (let n = 0; n < RENDERS; n += 1) {
      await production.enqueue(
        { teamId: team.id, plan: plans.growth },
        { html: `<p data-n="${n}">Document ${n}</p>`, filename: `doc-${n}`, metadata: { n } },
        false,
      );
    }
    // /ok answers at once; /slow hangs, so its deliveries are in flight (2, the per-endpoint cap) or waiting.
    rx.behave((req, res) => {
      if (req.url === '/ok') res.end('ok');
      else return new Promise<void>(() => {});
    });

    const first = spawnWorker(dataDir, 'hang');
    await waitUntil(
      '8 renders done, 2 running, 2 queued; /ok served; 2 /slow attempts in flight',
      async () => {
        const docs = await statusCounts('documents');
        const jobs = await db
          .selectFrom('jobs')
          .select(['kind', 'status'])
          .where('kind', '=', 'render')
          .execute();
        const ok = receiptsOn(rx, '/ok');
        const okLogged = await db
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
          .select('d.id')
          .where('e.url', 'like', '%/ok')
          .where('d.status', '=', 'succeeded')
          .execute();
        return (
          docs.succeeded === 8 &&
          jobs.filter((j) => j.status === 'running').length === 2 &&
          jobs.filter((j) => j.status === 'queued').length === 2 &&
          ok.size === 8 &&
          okLogged.length === 8 &&
          rx.inFlight === 2
        );
      },
    );
    const cutOff = new Set(receiptsOn(rx, '/slow').keys());
    assert.equal(cutOff.size, 2, 'two /slow attempts were in flight');
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    rx.behave(answer(200));
    const second = spawnWorker(dataDir, 'run');
    await waitUntil('every job finished and every delivery succeeded', async () => {
      const jobs = await statusCounts('jobs');
      const deliveries = await statusCounts('webhook_deliveries');
      return (
        jobs.succeeded === Object.values(jobs).reduce((a, b) => a + b, 0) &&
        deliveries.succeeded === 2 * RENDERS
      );
    });
    second.kill('SIGKILL');

    // Renders: each document rendered, stored, counted and announced exactly once.
    const docs = await db.selectFrom('documents').select(['id', 'status', 'counted']).execute();
    assert.equal(docs.length, RENDERS);
    assert.deepEqual(new Set(docs.map((d) => `${d.status}/${d.counted}`)), new Set(['succeeded/1']));
    const events = await db.selectFrom('webhook_events').select('envelope_json').execute();
    const announced = events.map((e) => JSON.parse(e.envelope_json).data.id as string);
    assert.equal(announced.length, RENDERS, 'one pdf.created per document');
    assert.deepEqual(new Set(announced), new Set(docs.map((d) => d.id)));

    // Deliveries: every event reached both endpoints. /ok finished its 8 before the kill: never sent again.
    const eventIds = events.map((e) => JSON.parse(e.envelope_json).id as string).sort();
    const ok = receiptsOn(rx, '/ok');
    assert.deepEqual([...ok.keys()].sort(), eventIds);
    assert.deepEqual(new Set(ok.values()), new Set([1]), '/ok received each event exactly once');
    // At least once: only the two attempts cut off by the kill were made again (their result was never
    // recorded, so the receiver may have acted on them); every other delivery arrived exactly once.
    const slow = receiptsOn(rx, '/slow');
    assert.deepEqual([...slow.keys()].sort(), eventIds);
    const repeated = [...slow].filter(([, times]) => times > 1).map(([id]) => id);
    assert.deepEqual(new Set(repeated), cutOff);
    assert.deepEqual(new Set([...slow].filter(([id]) => cutOff.has(id)).map(([, t]) => t)), new Set([2]));
    assert.ok(rx.maxInFlightOn('/slow') <= 2, 'the per-endpoint cap held across both processes');
  });
});
