import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlanId } from '../../../src/accounts/plans.js';
import { randomJson, rng } from '../../helpers/random.js';
import { api, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { type Receiver, serverWithReceiver } from '../../helpers/webhook-receiver.js';
import { teamWithTemplate, unzipAll, waitForBatch } from './helpers.js';

const item = (n: number) => ({ data: { number: `N-${n}`, customer: { name: 'C' } } });
const items = (count: number) => Array.from({ length: count }, (_, i) => item(i));

/** No render workers: every item stays queued, so cancel and the queue limits are seen as they are. */
describe('batches without render workers: cancel, limits, bad input', () => {
  let server: TestServer;
  let receiver: Receiver;
  serverWithReceiver({ workers: 0 }, (both) => ({ server, receiver } = both));

  /** A new team on `plan` with a template; `post` sends it a batch of `count` items (with its live key unless told). */
  const teamPostingBatches = async (plan: PlanId) => {
    const { team, templateId } = await teamWithTemplate(server, plan);
    const post = (count: number, key = team.live) =>
      api(server.base, 'POST', '/v1/batches', {
        key,
        body: { template_id: templateId, items: items(count) },
      });
    return { team, post };
  };

  it('cancel while items are queued: items canceled, batch canceled, batch.completed once with an empty ZIP', async () => {
    const { team: t, post } = await teamPostingBatches('growth');
    await api(server.base, 'POST', '/v1/webhooks', {
      key: t.test,
      body: { url: receiver.url('/cancel'), events: ['batch.completed'] },
    });
    const created = await post(3, t.test);
    assert.equal(created.status, 202, created.text);
    const canceled = await api(server.base, 'POST', `/v1/batches/${created.json.id}/cancel`, { key: t.test });
    assert.equal(canceled.status, 200);
    assert.equal(canceled.json.status, 'canceled');
    assert.deepEqual(canceled.json.counts, {
      total: 3,
      queued: 0,
      processing: 0,
      succeeded: 0,
      failed: 0,
      canceled: 3,
    });
    const listed = await api(server.base, 'GET', `/v1/batches/${created.json.id}/items`, { key: t.test });
    assert.deepEqual(
      listed.json.data.map((i: { status: string }) => i.status),
      ['canceled', 'canceled', 'canceled'],
    );
    const done = await waitForBatch(server.base, t.live, created.json.id);
    assert.equal(done.status, 'canceled');
    const zip = await fetch(done.zip.url);
    assert.equal(zip.status, 200);
    assert.equal((await unzipAll(Buffer.from(await zip.arrayBuffer()))).size, 0);
    const event = await waitFor(
      'batch.completed',
      async () => receiver.received.find((r) => r.path === '/cancel') ?? null,
    );
    assert.equal(JSON.parse(event.rawBody).data.status, 'canceled');
    assert.equal(JSON.parse(event.rawBody).livemode, false);
    // Canceling again changes nothing and sends nothing more.
    assert.equal(
      (await api(server.base, 'POST', `/v1/batches/${created.json.id}/cancel`, { key: t.test })).status,
      200,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(receiver.received.filter((r) => r.path === '/cancel').length, 1);
  });

  it('queues a batch larger than one insert chunk: every item a document with one render job, in order', async () => {
    const { team: t, templateId } = await teamWithTemplate(server, 'scale');
    // 1,201 items: the documents, jobs and item rows are written 500 rows per statement (three chunks).
    const count = 1_201;
    const created = await api(server.base, 'POST', '/v1/batches', {
      key: t.live,
      body: { template_id: templateId, items: items(count), filename_pattern: '{{ number }}', test: true },
    });
    assert.equal(created.status, 202, created.text);
    assert.equal(created.json.counts.total, count);
    assert.equal(created.json.counts.queued, count);
    const { db } = server.built.services;
    const docs = await db
      .selectFrom('documents')
      .select(['id', 'filename', 'status'])
      .where('batch_id', '=', created.json.id)
      .execute();
    assert.equal(docs.length, count);
    const jobs = await db
      .selectFrom('jobs')
      .select(['job_key', 'payload_json', 'status', 'test'])
      .where('team_id', '=', t.team.id)
      .execute();
    assert.equal(jobs.length, count);
    const jobByKey = new Map(jobs.map((job) => [job.job_key, job]));
    for (const doc of docs) {
      const job = jobByKey.get(`document:${doc.id}`);
      assert.ok(job, `render job of ${doc.id}`);
      assert.equal(job.status, 'queued');
      assert.equal(job.test, 1);
      assert.equal(JSON.parse(job.payload_json).documentId, doc.id);
    }
    // Item order survives the chunks: item 500 (the second chunk's first) and the last one.
    const page = await api(server.base, 'GET', `/v1/batches/${created.json.id}/items?after=498&limit=2`, {
      key: t.live,
    });
    assert.deepEqual(
      page.json.data.map((i: { index: number; filename: string }) => [i.index, i.filename]),
      [
        [499, 'N-499.pdf'],
        [500, 'N-500.pdf'],
      ],
    );
    const last = await api(server.base, 'GET', `/v1/batches/${created.json.id}/items?after=1199`, {
      key: t.live,
    });
    assert.deepEqual(
      last.json.data.map((i: { index: number; filename: string }) => [i.index, i.filename]),
      [[1200, 'N-1200.pdf']],
    );
  });

  it("refuses more items than the plan's batch_max_items, or than 10,000, whole", async () => {
    const { team: free, post } = await teamPostingBatches('free');
    const over = await post(101);
    assert.equal(over.status, 400);
    assert.equal(over.json.error.code, 'invalid_request');
    assert.match(over.json.error.message, /at most 100 items/);
    assert.deepEqual(over.json.error.details, { limit: 'batch_max_items', max: 100 });
    const { team: scale, templateId: scaleTemplate } = await teamWithTemplate(server, 'scale');
    const huge = await api(server.base, 'POST', '/v1/batches', {
      key: scale.live,
      body: { template_id: scaleTemplate, items: Array.from({ length: 10_001 }, () => ({})) },
    });
    assert.equal(huge.status, 400);
    assert.equal(huge.json.error.code, 'invalid_request');
    assert.equal((await api(server.base, 'GET', '/v1/batches', { key: free.live })).json.data.length, 0);
  });

  it('refuses a batch over open_jobs whole: rate_limited, details, no Retry-After, nothing queued', async () => {
    const { team: free, post } = await teamPostingBatches('free');
    const r = await post(51);
    assert.equal(r.status, 429);
    assert.equal(r.json.error.code, 'rate_limited');
    assert.deepEqual(r.json.error.details, { limit: 'open_jobs', max: 50 });
    assert.equal(r.headers.get('retry-after'), null);
    assert.equal((await api(server.base, 'GET', '/v1/batches', { key: free.live })).json.data.length, 0);
    assert.equal((await api(server.base, 'GET', '/v1/documents', { key: free.live })).json.data.length, 0);
  });

  it('refuses a test batch over test_jobs_per_day whole', async () => {
    const { team: free, post } = await teamPostingBatches('free');
    for (let round = 0; round < 2; round++) {
      const ok = await post(50, free.test);
      assert.equal(ok.status, 202, ok.text);
      // Canceled jobs are no longer open, but they were queued today.
      await api(server.base, 'POST', `/v1/batches/${ok.json.id}/cancel`, { key: free.test });
    }
    const r = await post(1, free.test);
    assert.equal(r.status, 429);
    assert.deepEqual(r.json.error.details, { limit: 'test_jobs_per_day', max: 100 });
    assert.equal(r.headers.get('retry-after'), null);
    assert.equal((await api(server.base, 'GET', '/v1/batches', { key: free.test })).json.data.length, 2);
  });

  it('answers bad bodies with the right code and a message that says what to fix', async () => {
    const { team: t, templateId } = await teamWithTemplate(server, 'growth');
    const cases: [unknown, number, string, RegExp?][] = [
      [{ template_id: templateId }, 400, 'invalid_request', /exactly one of "items" or "spreadsheet"/],
      [
        {
          template_id: templateId,
          items: [item(1)],
          spreadsheet: { filename: 'a.csv', content_base64: 'YQ==' },
        },
        400,
        'invalid_request',
        /exactly one/,
      ],
      [{ template_id: templateId, items: [] }, 400, 'invalid_request'],
      [{ template_id: templateId, items: [{ data: {}, extra: 1 }] }, 400, 'invalid_request'],
      [{ template_id: templateId, items: [item(1)], e_invoice: {} }, 400, 'invalid_request'],
      [{ template_id: 'nope', items: [item(1)] }, 400, 'invalid_request'],
      [
        { template_id: templateId, items: [item(1)], filename_pattern: 'x{{ a' },
        400,
        'invalid_request',
        /filename_pattern/,
      ],
      [{ template_id: templateId, items: [item(1)], margins: 'wide' }, 400, 'invalid_request'],
      [{ template_id: templateId, items: [{ filename: 'x'.repeat(101) }] }, 400, 'invalid_request'],
      [{ template_id: templateId, items: [item(1)], template_version: 9 }, 404, 'template_not_found'],
      [{ template_id: '00000000-0000-4000-8000-000000000000', items: [item(1)] }, 404, 'template_not_found'],
    ];
    for (const [body, status, code, message] of cases) {
      const r = await api(server.base, 'POST', '/v1/batches', { key: t.live, body });
      assert.equal(r.status, status, `${JSON.stringify(body).slice(0, 120)} → ${r.text}`);
      assert.equal(r.json.error.code, code);
      if (message) assert.match(r.json.error.message, message);
    }
    assert.equal((await api(server.base, 'GET', '/v1/batches', { key: t.live })).json.data.length, 0);
    const badCursor = await api(server.base, 'GET', '/v1/batches?before=zzz', { key: t.live });
    assert.equal(badCursor.json.error.code, 'invalid_request');
    const badId = await api(server.base, 'GET', '/v1/batches/not-a-uuid', { key: t.live });
    assert.equal(badId.json.error.code, 'invalid_request');
  });

  it('replays an Idempotency-Key: the same batch, queued once', async () => {
    const { team: t, templateId } = await teamWithTemplate(server, 'growth');
    const body = { template_id: templateId, items: items(2) };
    const headers = { 'idempotency-key': 'batch-key-1' };
    const first = await api(server.base, 'POST', '/v1/batches', { key: t.live, body, headers });
    const again = await api(server.base, 'POST', '/v1/batches', { key: t.live, body, headers });
    assert.equal(first.status, 202);
    assert.equal(again.status, 202);
    assert.equal(again.json.id, first.json.id);
    const other = await api(server.base, 'POST', '/v1/batches', {
      key: t.live,
      body: { ...body, items: items(3) },
      headers,
    });
    assert.equal(other.status, 422);
    assert.equal(other.json.error.code, 'idempotency_mismatch');
    assert.equal((await api(server.base, 'GET', '/v1/batches', { key: t.live })).json.data.length, 1);
  });

  it('fuzz: random POST /batches bodies never get a 5xx', async () => {
    const { team: t, templateId } = await teamWithTemplate(server, 'growth');
    const keys = [
      'template_id',
      'template_version',
      'items',
      'spreadsheet',
      'filename_pattern',
      'mode',
      'format',
      'margins',
      'deliver',
      'metadata',
      'test',
      'data',
      'filename',
      'mapping',
      'content_base64',
    ];
    const r = rng(7);
    for (let n = 0; n < 150; n++) {
      const body = randomJson(r, 0, keys);
      if (body && typeof body === 'object' && !Array.isArray(body) && r.next() < 0.5)
        (body as Record<string, unknown>).template_id = templateId;
      const res = await api(server.base, 'POST', '/v1/batches', { key: t.test, body });
      assert.ok(res.status < 500, `${JSON.stringify(body)} → ${res.status} ${res.text}`);
      if (res.status !== 202) assert.ok(res.json?.error?.code, res.text);
    }
  });
});
