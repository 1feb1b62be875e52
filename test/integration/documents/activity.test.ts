import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../../src/shared/clock.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';

const DAY_MS = 86_400_000;

interface Entry {
  status: string;
  at: string;
  duration_ms: number | null;
  pages?: number | null;
  warnings?: { code: string; path?: string }[];
  timings_ms?: Record<string, number>;
  error_code?: string;
}

async function activityOf(server: TestServer, key: string, id: string): Promise<Entry[]> {
  const r = await api(server.base, 'GET', `/v1/pdf/${id}/activity`, { key });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.document_id, id);
  assert.equal(r.headers.get('cache-control'), 'no-store');
  return r.json.data as Entry[];
}

async function finished(server: TestServer, key: string, id: string): Promise<{ status: string }> {
  return waitFor('the background render', async () => {
    const r = await api(server.base, 'GET', `/v1/pdf/${id}`, { key });
    return r.json.status === 'succeeded' || r.json.status === 'failed' ? r.json : null;
  });
}

/**
 * The activity of a direct render that spins until the render limit (render_timeout). Its document is the
 * first failed one among the newest `limit` of the log: the log is newest first by creation, and a
 * background document of an earlier test may sort above it.
 */
async function timedOutRenderActivity(server: TestServer, key: string, limit: number): Promise<Entry[]> {
  const r = await api(server.base, 'POST', '/v1/pdf', {
    key,
    body: { html: '<script>while(true){}</script>' },
  });
  assert.equal(r.json.error.code, 'render_timeout');
  const log = await api(server.base, 'GET', `/v1/documents?limit=${limit}`, { key });
  const timedOut = log.json.data.find(
    (d: { error_code: string | null }) => d.error_code === 'render_timeout',
  );
  assert.ok(timedOut, JSON.stringify(log.json.data));
  return activityOf(server, key, timedOut.id);
}

/** GET /v1/pdf/{id}/activity: status transitions with timing, pages and warnings, 30 days. */
describe('document activity log', () => {
  const clock = new ManualClock(new Date('2026-05-04T09:00:00Z'));
  let server: TestServer;
  let t: TestTeam;
  serverWithTeam(
    'growth',
    (both) => ({ server, team: t } = both),
    { workers: 1, renderTimeoutMs: 3_000 },
    { clock },
  );

  it('lists queued → processing → succeeded of a background render with pages, warnings and timing', async () => {
    const queued = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '<p>Hello {{ who }} {{ missing }}</p>', data: { who: 'log' }, async: true },
    });
    assert.equal(queued.status, 202);
    assert.equal((await finished(server, t.live, queued.json.id)).status, 'succeeded');
    const entries = await activityOf(server, t.live, queued.json.id);
    assert.deepEqual(
      entries.map((e) => e.status),
      ['queued', 'processing', 'succeeded'],
    );
    assert.equal(entries[0]?.duration_ms, null);
    for (const e of entries.slice(1)) assert.equal(typeof e.duration_ms, 'number');
    const done = entries[2];
    assert.equal(done?.pages, 1);
    assert.deepEqual(
      done?.warnings?.map((w) => [w.code, w.path]),
      [['missing_variable', 'missing']],
    );
    const timings = done?.timings_ms ?? {};
    for (const stage of ['render', 'load', 'analyze', 'pdf', 'post'])
      assert.ok(Number.isInteger(timings[stage]) && (timings[stage] ?? -1) >= 0, stage);
    assert.ok((timings.render ?? 0) > 0, 'a real render takes some milliseconds');
  });

  it('shows a direct render that timed out as processing → failed with its error code', async () => {
    const entries = await timedOutRenderActivity(server, t.live, 20);
    assert.deepEqual(
      entries.map((e) => [e.status, e.error_code]),
      [
        ['processing', undefined],
        ['failed', 'render_timeout'],
      ],
    );
  });

  it('shows a background render that failed for good with its error code', async () => {
    const pages = '<div style="break-after: page">x</div>'.repeat(60);
    const queued = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: pages, async: true },
    });
    assert.equal(queued.status, 202);
    assert.equal((await finished(server, t.live, queued.json.id)).status, 'failed');
    const entries = await activityOf(server, t.live, queued.json.id);
    assert.deepEqual(
      entries.map((e) => [e.status, e.error_code]),
      [
        ['queued', undefined],
        ['processing', undefined],
        ['failed', 'document_too_large'],
      ],
    );
  });

  it('follows GET /pdf/{id} visibility: a test key sees only test documents', async () => {
    const live = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '<p>live</p>', response: 'url' },
    });
    const hidden = await api(server.base, 'GET', `/v1/pdf/${live.json.id}/activity`, { key: t.test });
    assert.equal(hidden.status, 404);
    assert.equal(hidden.json.error.code, 'document_not_found');
    const other = await server.team('growth');
    const foreign = await api(server.base, 'GET', `/v1/pdf/${live.json.id}/activity`, { key: other.live });
    assert.equal(foreign.json.error.code, 'document_not_found');
    const test = await api(server.base, 'POST', '/v1/pdf', {
      key: t.test,
      body: { html: '<p>test</p>', response: 'url' },
    });
    const own = await activityOf(server, t.test, test.json.id);
    assert.deepEqual(
      own.map((e) => e.status),
      ['processing', 'succeeded'],
    );
    const badId = await api(server.base, 'GET', '/v1/pdf/not-a-uuid/activity', { key: t.live });
    assert.equal(badId.status, 400);
    assert.equal(badId.json.error.code, 'invalid_request');
  });

  it('is swept after 30 days while the document record stays (120 days)', async () => {
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '<p>old</p>', response: 'url' },
    });
    assert.equal((await activityOf(server, t.live, r.json.id)).length, 2);
    clock.advance(29 * DAY_MS);
    await server.built.services.sweeper.runOnce();
    assert.equal((await activityOf(server, t.live, r.json.id)).length, 2, 'kept for 30 days');
    clock.advance(2 * DAY_MS);
    await server.built.services.sweeper.runOnce();
    assert.deepEqual(await activityOf(server, t.live, r.json.id), []);
    const doc = await api(server.base, 'GET', `/v1/pdf/${r.json.id}`, { key: t.live });
    assert.equal(doc.status, 200);
    assert.equal(doc.json.status, 'succeeded');
  });
});

/**
 * A direct render's "processing → succeeded after" spans the request, so it is never less
 * than the render's own timing (it used to start when the render had already finished: "after 27 ms" beside
 * "render 305 ms"). The real clock: the durations are what a user reads.
 */
describe('document activity durations (real clock)', () => {
  let server: TestServer;
  let t: TestTeam;
  serverWithTeam('growth', (both) => ({ server, team: t } = both), { workers: 1, renderTimeoutMs: 2_000 });

  it('a direct render lasts at least as long as its render timing', async () => {
    // The script keeps the page busy for 300 ms before the load finishes: a render that takes time.
    const slow = '<p>slow</p><script>const t0 = Date.now(); while (Date.now() - t0 < 300) {}</script>';
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: slow, response: 'url' },
    });
    assert.equal(r.status, 200, r.text);
    const entries = await activityOf(server, t.live, r.json.id);
    assert.deepEqual(
      entries.map((e) => e.status),
      ['processing', 'succeeded'],
    );
    const done = entries[1];
    const render = done?.timings_ms?.render ?? 0;
    assert.ok(render >= 300, `the render took the script's 300 ms (${render} ms)`);
    assert.ok(
      (done?.duration_ms ?? 0) >= render,
      `processing → succeeded (${done?.duration_ms} ms) covers the render (${render} ms)`,
    );
  });

  it('a direct render that failed shows how long it ran before failing', async () => {
    const entries = await timedOutRenderActivity(server, t.live, 5);
    const timeoutMs = server.config.renderTimeoutMs;
    assert.ok(
      (entries[1]?.duration_ms ?? 0) >= timeoutMs,
      `failed after ${entries[1]?.duration_ms} ms, not before the ${timeoutMs} ms timeout`,
    );
  });
});
