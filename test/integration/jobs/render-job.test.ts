import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadPlans } from '../../../src/accounts/plans.js';
import { createTeam, type Team } from '../../../src/accounts/teams.js';
import { UsageService } from '../../../src/accounts/usage-service.js';
import { createDocuments, LinkSigner } from '../../../src/documents/index.js';
import { JobRegistry } from '../../../src/jobs/registry.js';
import { startWorkers, type Workers } from '../../../src/jobs/worker.js';
import { LiquidEngine } from '../../../src/liquid/index.js';
import {
  type BackgroundDeps,
  createAdmission,
  createRenderJobHandler,
  enqueueDocument,
  RENDER_JOB,
  renderJobOptions,
} from '../../../src/production/index.js';
import { resolvePageOptions } from '../../../src/render/index.js';
import type { RenderResult } from '../../../src/render/types.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { AppError, type ErrorCode } from '../../../src/shared/errors.js';
import { MemoryTeamSlots } from '../../../src/shared/team-slots.js';
import { FsBlobStore } from '../../../src/storage/blob-store.js';
import type { Db } from '../../../src/storage/db.js';
import { mergeData } from '../../../src/templates/merge-data.js';
import { insertEndpoint } from '../../../src/webhooks/endpoints.js';
import { createSecretBox } from '../../../src/webhooks/secret-box.js';
import { openTestDatabase } from '../../helpers/database.js';

/**
 * What the scripted renderer does for one attempt: succeed with a page count, or fail with a code.
 * `before: true` fails before rendering (the plan check), as a plan limit reached while queued would.
 */
type RenderAttempt =
  | { ok: true; changes: { pages: number; bytes: number; mode: 'fast' | 'print'; counted?: number } }
  | { ok: false; code: ErrorCode; message: string; rendered: boolean };

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
  let production: BackgroundDeps;
  let beforeRendering = false;
  const currentDocument = (html: string) => /data-doc="([^"]+)"/.exec(html)?.[1] ?? '';
  const fakeResult = (pages: number, bytes: number, mode: 'fast' | 'print'): RenderResult => ({
    pdf: Buffer.alloc(bytes, 1),
    pages,
    mode,
    blockedResources: [],
    blockedCount: 0,
    warnings: [],
    timings: { loadMs: 0, analyzeMs: 0, pdfMs: 0, postMs: 0 },
  });

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'quire-render-job-'));
    db = await openTestDatabase(dataDir);
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
    const usage = new UsageService({ db, plans });
    const documents = createDocuments({
      db,
      clock,
      usage,
      blobs: new FsBlobStore(path.join(dataDir, 'blobs')),
      signer: new LinkSigner(Buffer.alloc(32, 1)),
      publicUrl: () => 'http://127.0.0.1:1',
      makeThumbnail: async () => Buffer.alloc(0),
    });
    const liquid = new LiquidEngine();
    production = {
      db,
      clock,
      // The renderer seam is scripted: timeouts and crashes on demand, without minutes of real rendering.
      renderer: {
        render: async (job) => {
          const id = currentDocument(job.html);
          calls.push(id);
          const attempt = script.get(id)?.shift();
          if (!attempt?.ok) {
            throw new AppError(attempt?.code ?? 'render_failed', attempt?.message ?? 'unscripted');
          }
          return fakeResult(attempt.changes.pages, attempt.changes.bytes, attempt.changes.mode);
        },
      },
      liquid: { renderSource: async (source, data) => liquid.renderSource(source, data) },
      templates: {
        resolve: async () => {
          throw new AppError('template_not_found', 'none');
        },
      },
      pageOptions: (request, settings, fallback) => resolvePageOptions(request, settings ?? {}, fallback),
      mergeData,
      slots,
      blobs: new FsBlobStore(path.join(dataDir, 'blobs')),
      ledger: {
        // A document scripted to fail before rendering finds the team's storage full when its job runs.
        storedBytes: async (teamId, test) =>
          beforeRendering ? Number.MAX_SAFE_INTEGER : documents.ledger.storedBytes(teamId, test),
      },
      usage,
      lifecycle: documents.lifecycle,
      admission: createAdmission({ clock, maxPreparing: 64, dataDir, minFreeBytes: 0 }),
      certificates: { signingKey: () => Promise.reject(new Error('this test signs nothing')) },
      delivery: {
        assertAllowed: async () => {},
        queue: async () => ({ email: { status: 'queued' } }),
      },
      findDocument: documents.findById,
      // These tests merge nothing.
      storedPdfs: { find: async () => null },
      planOf: async () => plans.starter,
    };
    const registry = new JobRegistry();
    registry.register(RENDER_JOB, createRenderJobHandler(production), renderJobOptions(production));
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
    const key = `k${Math.random().toString(36).slice(2)}`;
    beforeRendering = false;
    const answer = await enqueueDocument(
      production,
      { teamId: team.id, plan: plans.starter },
      { html: `<p data-doc="${key}">x</p>`, filename: 'invoice', metadata: { order: 7 } },
      options.test ?? false,
    );
    script.set(key, attempts);
    beforeRendering = attempts[0]?.ok === false && !attempts[0].rendered;
    assert.deepEqual(answer, { id: answer.id, status: 'queued', created_at: clock.now().toISOString() });
    return answer.id;
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
      {
        ok: false,
        code: 'storage_limit_reached',
        message: 'Stored PDFs reached the plan limit.',
        rendered: false,
      },
    ]);
    await run();
    assert.equal(await doc(id), undefined);
    const [event] = await events(id);
    assert.equal(event.type, 'pdf.failed');
    assert.equal(event.data.status, 'failed');
    assert.equal(event.data.error_code, 'storage_limit_reached');
    assert.equal(event.data.error_message, 'Stored PDFs reached the plan limit.');
  });

  it('waits for a free render slot, leaving one for direct requests, without spending an attempt', async () => {
    const direct = await slots.tryAcquire(team.id, plans.starter.render_concurrency, 'direct');
    assert.ok(direct);
    const id = await queue([{ ok: true, changes: { pages: 1, bytes: 10, mode: 'fast' } }]);
    calls.length = 0;
    await run();
    assert.equal(calls.length, 0, 'starter has 2 slots: background may use only 1, and it is taken');
    await direct.release();
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
