import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadPlans } from '../../../src/accounts/plans.js';
import { createTeam, type Team } from '../../../src/accounts/teams.js';
import type { DocumentRow } from '../../../src/documents/repository.js';
import { enqueueRender, RENDER_JOB } from '../../../src/jobs/enqueue-render.js';
import { JobRegistry } from '../../../src/jobs/registry.js';
import {
  createRenderJobHandler,
  type RenderAttempt,
  type RenderJobDeps,
  renderJobOptions,
} from '../../../src/jobs/render-job.js';
import { startWorkers, type Workers } from '../../../src/jobs/worker.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { newId } from '../../../src/shared/ids.js';
import { MemoryTeamSlots } from '../../../src/shared/team-slots.js';
import { type Db, openDatabase } from '../../../src/storage/db.js';
import { insertEndpoint } from '../../../src/webhooks/endpoints.js';
import { createSecretBox } from '../../../src/webhooks/secret-box.js';

describe('background render job', () => {
  let dataDir: string;
  let db: Db;
  let workers: Workers;
  let team: Team;
  const clock = new ManualClock();
  const plans = loadPlans(null);
  const slots = new MemoryTeamSlots();
  const script = new Map<string, RenderAttempt[]>();
  const calls: string[] = [];

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'quire-render-job-'));
    db = await openDatabase(dataDir);
    team = await createTeam(db, clock, { name: 'Renders', plan: 'starter' });
    for (const mode of ['live', 'test'] as const) {
      await insertEndpoint(db, clock, createSecretBox(Buffer.alloc(32)), {
        teamId: team.id,
        mode,
        url: 'https://hooks.example.com/',
        events: ['pdf.created', 'pdf.failed'],
        description: null,
      });
    }
    const registry = new JobRegistry();
    const deps: RenderJobDeps = {
      clock,
      plans,
      slots,
      renderer: {
        render: async ({ document }) => {
          calls.push(document.id);
          return (
            script.get(document.id)?.shift() ?? {
              ok: false,
              code: 'render_failed',
              message: 'unscripted',
              rendered: true,
            }
          );
        },
      },
      present: (row: DocumentRow) => ({
        id: row.id,
        status: row.status,
        pages: row.pages,
        error_code: row.error_code,
        test: row.test === 1,
      }),
    };
    registry.register(RENDER_JOB, createRenderJobHandler(deps), renderJobOptions(deps));
    workers = startWorkers({
      db,
      clock,
      registry,
      pools: [{ name: 'render', kinds: [RENDER_JOB], concurrency: 1 }],
      pollMs: 60_000,
    });
  });
  after(async () => {
    await workers.stop();
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function queue(attempts: RenderAttempt[], options: { test?: boolean } = {}): Promise<string> {
    const id = newId();
    script.set(id, attempts);
    const answer = await enqueueRender(db, clock, {
      plan: plans.starter,
      teamId: team.id,
      test: options.test ?? false,
      documentId: id,
      filename: 'invoice.pdf',
      contentType: 'application/pdf',
      templateId: null,
      metadata: { order: 7 },
      batchId: null,
      request: { html: '<p>x</p>' },
    });
    assert.deepEqual(answer, { id, status: 'queued', created_at: clock.now().toISOString() });
    return id;
  }

  /** Wakes the worker and waits until it runs nothing and finds no render due at the clock's now. */
  async function run(): Promise<void> {
    workers.wake();
    await workers.idle();
  }

  const doc = (id: string) => db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();
  const events = async (documentId: string) =>
    (await db.selectFrom('webhook_events').select('envelope_json').execute())
      .map((e) => JSON.parse(e.envelope_json))
      .filter((e) => e.data.id === documentId);

  it('succeeds: the document is stored and counted once, and pdf.created is in the outbox', async () => {
    const id = await queue([{ ok: true, changes: { pages: 2, bytes: 1234, mode: 'fast', counted: 1 } }]);
    assert.equal((await doc(id))?.status, 'queued');
    await run();
    const row = await doc(id);
    assert.equal(row?.status, 'succeeded');
    assert.equal(row?.counted, 1);
    const [event] = await events(id);
    assert.equal(event.type, 'pdf.created');
    assert.equal(event.livemode, true);
    assert.deepEqual(
      {
        status: event.data.status,
        pages: event.data.pages,
        filename: event.data.filename,
        metadata: event.data.metadata,
        batch_id: event.data.batch_id,
      },
      { status: 'succeeded', pages: 2, filename: 'invoice.pdf', metadata: { order: 7 }, batch_id: null },
    );
    const deliveries = await db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('event_id', '=', event.id)
      .execute();
    assert.equal(deliveries.length, 1, 'live document: only the live endpoint');
  });

  it('retries render_timeout after 30 s and 2 min, then fails after 3 attempts', async () => {
    const timeout: RenderAttempt = {
      ok: false,
      code: 'render_timeout',
      message: 'over 30 s',
      rendered: true,
    };
    const id = await queue([timeout, timeout, timeout], { test: true });
    calls.length = 0;
    await run();
    assert.equal(calls.length, 1);
    assert.equal((await doc(id))?.status, 'processing');
    clock.advance(29_000);
    await run();
    assert.equal(calls.length, 1, 'not before 30 s');
    clock.advance(1_000);
    await run();
    assert.equal(calls.length, 2);
    clock.advance(119_000);
    await run();
    assert.equal(calls.length, 2, 'not before 2 min');
    clock.advance(1_000);
    await run();
    assert.equal(calls.length, 3);
    clock.advance(10 * 60_000);
    await run();
    assert.equal(calls.length, 3, 'no fourth attempt');
    const row = await doc(id);
    assert.equal(row?.status, 'failed');
    assert.equal(row?.error_code, 'render_timeout');
    const [event] = await events(id);
    assert.equal(event.type, 'pdf.failed');
    assert.equal(event.livemode, false);
  });

  it('fails other errors at once', async () => {
    const id = await queue([{ ok: false, code: 'render_failed', message: 'crashed', rendered: true }]);
    calls.length = 0;
    await run();
    clock.advance(60 * 60_000);
    await run();
    assert.equal(calls.length, 1);
    assert.equal((await doc(id))?.status, 'failed');
  });

  it('a failure before rendering leaves no document and an event with error_message', async () => {
    const id = await queue([
      { ok: false, code: 'plan_limit_reached', message: 'No included documents left.', rendered: false },
    ]);
    await run();
    assert.equal(await doc(id), undefined);
    const [event] = await events(id);
    assert.equal(event.type, 'pdf.failed');
    assert.equal(event.data.status, 'failed');
    assert.equal(event.data.error_code, 'plan_limit_reached');
    assert.equal(event.data.error_message, 'No included documents left.');
  });

  it('waits for a free render slot, leaving one for direct requests, without spending an attempt', async () => {
    const direct = slots.tryAcquire(team.id, plans.starter.render_concurrency, 'direct');
    assert.ok(direct);
    const id = await queue([{ ok: true, changes: { pages: 1, bytes: 10, mode: 'fast' } }]);
    calls.length = 0;
    await run();
    assert.equal(calls.length, 0, 'starter has 2 slots: background may use only 1, and it is taken');
    direct.release();
    clock.advance(1_000);
    await run();
    assert.equal(calls.length, 1);
    const job = await db
      .selectFrom('jobs')
      .selectAll()
      .where('payload_json', '=', '{}')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    assert.equal(job?.attempts, 1);
    assert.equal((await doc(id))?.status, 'succeeded');
  });
});
