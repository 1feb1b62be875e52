import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadPlans } from '../../../src/accounts/plans.js';
import { createTeam, type Team } from '../../../src/accounts/teams.js';
import { UsageService } from '../../../src/accounts/usage-service.js';
import { createDocuments, LinkSigner } from '../../../src/documents/index.js';
import { openProtect, PROTECT_PASSWORDS_PURPOSE, type StoredProtect } from '../../../src/finishing/index.js';
import type { ProtectOption } from '../../../src/finishing/schema.js';
import { JobRegistry } from '../../../src/jobs/registry.js';
import { startWorkers, type Workers } from '../../../src/jobs/worker.js';
import { LiquidEngine } from '../../../src/liquid/index.js';
import {
  createAdmission,
  createProduction,
  type Production,
  type ProductionDeps,
} from '../../../src/production/index.js';
import type { RenderResult } from '../../../src/render/types.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { AppError, type ErrorCode } from '../../../src/shared/errors.js';
import { MemoryTeamSlots } from '../../../src/shared/team-slots.js';
import { FsBlobStore } from '../../../src/storage/blob-store.js';
import type { Db } from '../../../src/storage/db.js';
import { insertEndpoint } from '../../../src/webhooks/endpoints.js';
import { createSecretBox } from '../../../src/webhooks/secret-box.js';
import { databaseForBlock } from '../../helpers/database.js';
import { PLAIN_HTML_DEPS } from './plain-html-deps.js';

/** The worker's box for sealed `protect` passwords (a fixed secret: these tests read what it sealed). */
const passwords = createSecretBox(Buffer.alloc(32, 1), PROTECT_PASSWORDS_PURPOSE);

/**
 * What the scripted renderer does for one attempt: succeed with a page count, or fail with a code.
 * `before: true` fails before rendering (the plan check), as a plan limit reached while queued would.
 */
type RenderAttempt =
  | { ok: true; changes: { pages: number; bytes: number; mode: 'fast' | 'print'; counted?: number } }
  | { ok: false; code: ErrorCode; message: string; rendered: boolean; gate?: Promise<void> };

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
  let production: Production;
  /** How often the last documents passed through admission and through Liquid (counters in the deps). */
  const passes = { admit: 0, liquid: 0 };
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

  // Registered ahead of the database's hooks, so the workers stop before it closes.
  after(async () => workers.stop());
  databaseForBlock('quire-render-job-', (both) => ({ dataDir, db } = both));
  before(async () => {
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
    const delivery: ProductionDeps['delivery'] = {
      assertAllowed: async () => {},
      queue: async () => ({ email: { status: 'queued' } }),
    };
    const ledger = {
      // A document scripted to fail before rendering finds the team's storage full when its job runs.
      storedBytes: async (teamId: string, test: boolean) =>
        beforeRendering ? Number.MAX_SAFE_INTEGER : documents.ledger.storedBytes(teamId, test),
    };
    const admission = createAdmission({
      clock,
      usage,
      ledger,
      delivery,
      maxPreparing: 64,
      dataDir,
      minFreeBytes: 0,
    });
    const deps: ProductionDeps = {
      clock,
      // The renderer seam is scripted: timeouts and crashes on demand, without minutes of real rendering.
      renderer: {
        render: async (job) => {
          const id = currentDocument(job.html);
          calls.push(id);
          const attempt = script.get(id)?.shift();
          if (attempt && !attempt.ok) await attempt.gate;
          if (!attempt?.ok) {
            throw new AppError(attempt?.code ?? 'render_failed', attempt?.message ?? 'unscripted');
          }
          return fakeResult(attempt.changes.pages, attempt.changes.bytes, attempt.changes.mode);
        },
      },
      liquid: {
        renderSource: async (source, data) => {
          passes.liquid += 1;
          return liquid.renderSource(source, data);
        },
        check: async (source) => liquid.check(source),
      },
      ...PLAIN_HTML_DEPS,
      slots,
      blobs: new FsBlobStore(path.join(dataDir, 'blobs')),
      ledger,
      lifecycle: documents.lifecycle,
      admission: {
        ...admission,
        admit: (request) => {
          passes.admit += 1;
          return admission.admit(request);
        },
      },
      delivery,
      findDocument: documents.findById,
      planOf: async () => plans.starter,
      passwords,
    };
    production = createProduction(deps);
    const registry = new JobRegistry();
    const renderJob = production.renderJob();
    registry.register(renderJob.kind, renderJob.handler, renderJob.options);
    workers = startWorkers({
      db,
      clock,
      registry,
      pools: [{ name: 'render', kinds: [renderJob.kind], concurrency: 1 }],
      pollMs: 60_000,
    });
  });

  async function queue(
    attempts: RenderAttempt[],
    options: { test?: boolean; protect?: ProtectOption } = {},
  ): Promise<string> {
    const key = `k${Math.random().toString(36).slice(2)}`;
    beforeRendering = false;
    const answer = await production.enqueue(
      { teamId: team.id, plan: plans.starter },
      {
        html: `<p data-doc="${key}">x</p>`,
        filename: 'invoice',
        metadata: { order: 7 },
        ...(options.protect ? { protect: options.protect } : {}),
      },
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
    // Each retry waits its whole delay: nothing a second before it, the attempt once it is over.
    for (const [attempt, delayMs, delay] of [
      [2, 30_000, '30 s'],
      [3, 120_000, '2 min'],
    ] as const) {
      clock.advance(delayMs - 1_000);
      await run();
      assert.equal(calls.length, attempt - 1, `not before ${delay}`);
      clock.advance(1_000);
      await run();
      assert.equal(calls.length, attempt);
    }
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

  it("keeps a queued document's protect passwords only sealed, and erases them when it is final", async () => {
    const protect: ProtectOption = {
      owner_password: 'queued-owner-secret',
      user_password: 'queued-user-secret',
      permissions: { copy: false },
    };
    // The render is held until the payload is read: on PostgreSQL a worker woken by NOTIFY may claim the job
    // at once, and a finished job's payload is already erased.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const id = await queue([{ ok: false, code: 'render_failed', message: 'crashed', rendered: true, gate }], {
      protect,
    });
    let queuedId = '';
    try {
      const job = () =>
        db
          .selectFrom('jobs')
          .select(['id', 'payload_json'])
          .where('payload_json', 'like', `%${id}%`)
          .executeTakeFirst();
      const queued = await job();
      assert.ok(queued, 'the render job is queued');
      queuedId = queued.id;
      assert.ok(!queued.payload_json.includes('queued-owner-secret'), 'no plain owner password');
      assert.ok(!queued.payload_json.includes('queued-user-secret'), 'no plain user password');
      const payload = JSON.parse(queued.payload_json) as { request: object; protect: StoredProtect };
      assert.equal('protect' in payload.request, false, 'the request is stored without protect');
      assert.deepEqual(
        { ...payload.protect, sealed_passwords: undefined },
        {
          permissions: { copy: false },
          owner_password_set: true,
          user_password_set: true,
          sealed_passwords: undefined,
        },
      );
      // Only the worker's box opens it: the same server secret under another purpose (webhook secrets) cannot.
      assert.deepEqual(openProtect(passwords, payload.protect), protect);
      assert.throws(() => createSecretBox(Buffer.alloc(32, 1)).open(payload.protect.sealed_passwords));
    } finally {
      release();
    }
    await run();
    assert.equal((await doc(id))?.status, 'failed');
    const final = await db
      .selectFrom('jobs')
      .select(['payload_json', 'status'])
      .where('id', '=', queuedId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(final, { payload_json: '{}', status: 'failed' });
  });

  it('fails at once, saying to send protect again, when the sealed passwords no longer open', async () => {
    // Sealed under another server secret than the worker's (the secret changed since it was queued). Done at
    // enqueue, not by editing the job afterwards: on PostgreSQL the worker may claim it at once.
    const other = createSecretBox(Buffer.alloc(32, 2), PROTECT_PASSWORDS_PURPOSE);
    const seal = passwords.seal;
    passwords.seal = (text) => other.seal(text);
    calls.length = 0;
    let id: string;
    try {
      id = await queue([{ ok: true, changes: { pages: 1, bytes: 100, mode: 'fast' } }], {
        protect: { owner_password: 'owner-before-the-change' },
      });
    } finally {
      passwords.seal = seal;
    }
    await run();
    clock.advance(60 * 60_000);
    await run();
    assert.equal(calls.length, 0, 'nothing was rendered, and no attempt was retried');
    assert.equal(await doc(id), undefined);
    const [event] = await events(id);
    assert.equal(event.type, 'pdf.failed');
    assert.equal(event.data.error_code, 'render_failed');
    assert.match(event.data.error_message, /send "protect" again/);
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

  it('a sync and an async render each pass through admission once and run Liquid once', async () => {
    const caller = { teamId: team.id, plan: plans.starter };
    const request = (key: string) => ({ html: '<p data-doc="{{ key }}">{{ n }}</p>', data: { key, n: 1 } });
    script.set('sync-once', [{ ok: true, changes: { pages: 1, bytes: 10, mode: 'fast' } }]);
    passes.admit = 0;
    passes.liquid = 0;
    const direct = await production.produce({
      caller,
      request: request('sync-once'),
      purpose: { kind: 'direct', response: 'url', replayable: false },
      test: false,
    });
    assert.equal(direct.row?.status, 'succeeded');
    assert.deepEqual(passes, { admit: 1, liquid: 1 }, 'sync: one admission, one Liquid render');

    script.set('async-once', [{ ok: true, changes: { pages: 1, bytes: 10, mode: 'fast' } }]);
    passes.admit = 0;
    passes.liquid = 0;
    const queued = await production.enqueue(caller, request('async-once'), false);
    assert.deepEqual(passes, { admit: 1, liquid: 0 }, 'async enqueue: admitted, Liquid only parsed');
    await run();
    assert.equal((await doc(queued.id))?.status, 'succeeded');
    assert.deepEqual(passes, { admit: 1, liquid: 1 }, 'async: one admission, one Liquid render in all');
  });

  it('an async request whose html does not parse is refused at once with template_render_error, nothing queued', async () => {
    const before = await db.selectFrom('documents').select('id').execute();
    await assert.rejects(
      production.enqueue({ teamId: team.id, plan: plans.starter }, { html: '{% if %}', data: {} }, false),
      { code: 'template_render_error' },
    );
    assert.equal((await db.selectFrom('documents').select('id').execute()).length, before.length);
  });
});
