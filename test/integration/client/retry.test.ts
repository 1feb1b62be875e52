import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { QuireClient, QuireError, type RetryOptions } from '../../../clients/typescript/src/index.js';
import { type ApiResponse, api, startTestServer, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * The client's retry rules (spec: Errors) against a real server that produces each condition: a spent
 * per-minute budget, a team at its render concurrency, a renderer with no free page, a database fault and
 * a second request with an Idempotency-Key whose first request still renders. Every attempt the client
 * makes goes through real HTTP and is recorded by the fetch it is given.
 */

/** Renders for about `ms` milliseconds (a script keeps Chromium busy). */
const busyHtml = (ms: number, label: string) =>
  `<script>const end = Date.now() + ${ms}; while (Date.now() < end) {}</script><p>${label}</p>`;

interface Attempt {
  path: string;
  idempotencyKey: string | null;
  sentAt: number;
  answeredAt: number;
  status: number;
  code: string | null;
  retryAfter: string | null;
}

/** A client whose every attempt (retries included) is recorded. */
function observedClient(base: string, apiKey: string, retry: RetryOptions = {}) {
  const attempts: Attempt[] = [];
  const client = new QuireClient({
    baseUrl: base,
    apiKey,
    retry,
    fetch: async (request) => {
      const sentAt = Date.now();
      const response = await fetch(request);
      const body = (response.headers.get('content-type') ?? '').includes('json')
        ? ((await response
            .clone()
            .json()
            .catch(() => null)) as { error?: { code?: string } } | null)
        : null;
      attempts.push({
        path: new URL(request.url).pathname,
        idempotencyKey: request.headers.get('idempotency-key'),
        sentAt,
        answeredAt: Date.now(),
        status: response.status,
        code: body?.error?.code ?? null,
        retryAfter: response.headers.get('retry-after'),
      });
      return response;
    },
  });
  return { client, attempts };
}

/** Milliseconds between an answer and the next attempt, for each retry. */
function waits(attempts: Attempt[]): number[] {
  return attempts.slice(1).map((attempt, i) => attempt.sentAt - (attempts[i] as Attempt).answeredAt);
}

/** Starts a direct render through plain HTTP (no client) and resolves with its response. */
function startSlowRender(base: string, key: string, ms: number, headers: Record<string, string> = {}) {
  return api(base, 'POST', '/v1/pdf', { key, body: { html: busyHtml(ms, 'first') }, headers });
}

/**
 * A render on a server with one page and no queue: a page still being reset after the previous test's render
 * answers 503 service_busy (a loaded machine resets it later), so the request is sent again until it gets the
 * page. A 503 releases its Idempotency-Key, so a keyed request may be sent again with the same key.
 */
function onFreePage(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  return waitFor(
    'the page to come free for the slow render',
    async () => {
      const r = await send();
      return r.status === 503 ? null : r;
    },
    // A ceiling, not an expectation: a page is reset within a second or two.
    60_000,
    100,
  );
}

const slowRenderOnFreePage = (base: string, key: string, ms: number) =>
  onFreePage(() => startSlowRender(base, key, ms));

/**
 * Waits until a render holds the server's page (so the next request finds it taken); fails with the first
 * request's answer if it ends before.
 */
async function renderingStarted(server: TestServer, first: Promise<ApiResponse>): Promise<void> {
  let ended: ApiResponse | null = null;
  // A rejection is the caller's to see when it awaits `first`.
  first.then(
    (r) => {
      ended = r;
    },
    () => undefined,
  );
  await waitFor(
    'a render to hold the page',
    async () => {
      if (ended) assert.fail(`the first request ended first: ${ended.status} ${ended.text.slice(0, 200)}`);
      return ((await server.built.services.renderer.stats())?.busy ?? 0) > 0 ? true : null;
    },
    // Generous: on a loaded machine the first render may take a while to reach Chromium.
    60_000,
    20,
  ).catch(async (err: unknown) => {
    throw new Error(
      `${String(err)}; renderer: ${JSON.stringify(await server.built.services.renderer.stats())}`,
    );
  });
}

describe('TypeScript client retry rules against a real server', () => {
  let server: TestServer;
  let plansDir: string;
  /** The server's clock runs at real speed, shifted by this many ms (to reach the end of a rate window). */
  let clockOffsetMs = 0;

  before(async () => {
    plansDir = mkdtempSync(path.join(tmpdir(), 'quire-plans-'));
    const plansFile = path.join(plansDir, 'plans.json');
    // Starter: a budget of 3 requests a minute. Free keeps its render concurrency of 1.
    writeFileSync(plansFile, JSON.stringify({ starter: { rate_limit_per_min: 3 } }));
    server = await startTestServer(
      // One page and no wait queue: a second render while one runs is service_busy.
      { plansFile, renderPoolSize: 1, renderQueueMax: 0, workers: 0 },
      { clock: { now: () => new Date(Date.now() + clockOffsetMs) }, warmRenderer: true },
    );
  });
  after(async () => {
    await server?.close();
    rmSync(plansDir, { recursive: true, force: true });
  });

  it('rate_limited (per-minute budget): waits Retry-After seconds, then succeeds', async () => {
    const t = await server.team('starter');
    // Only the computed wait matters here: the client's sleep moves the server's clock on instead.
    const slept: number[] = [];
    const sleep = async (ms: number) => {
      slept.push(ms);
      clockOffsetMs += ms;
    };
    const { client, attempts } = observedClient(server.base, t.live, { sleep });
    for (let i = 0; i < 3; i++) await client.api.GET('/me');
    assert.deepEqual(
      attempts.map((a) => a.status),
      [200, 200, 200],
    );
    // 57 s into the minute: the refusal says to come back in 1 to 3 seconds.
    clockOffsetMs += 57_000;
    const me = await client.api.GET('/me');
    assert.equal(me.response.status, 200);
    const [refused, retried] = attempts.slice(3);
    assert.equal(attempts.length, 5, JSON.stringify(attempts));
    assert.equal(refused?.status, 429);
    assert.equal(refused?.code, 'rate_limited');
    const seconds = Number(refused?.retryAfter);
    assert.ok(seconds >= 1 && seconds <= 3, `Retry-After ${refused?.retryAfter}`);
    assert.equal(retried?.status, 200);
    assert.deepEqual(slept, [seconds * 1000], `slept ${slept.join(', ')} ms for Retry-After ${seconds}`);
  });

  it('rate_limited (render concurrency): retries after Retry-After: 1 with the same key until a slot frees', async () => {
    const t = await server.team('free');
    const first = slowRenderOnFreePage(server.base, t.live, 3000);
    await renderingStarted(server, first);
    const { client, attempts } = observedClient(server.base, t.live, { maxAttempts: 12 });
    const file = await client.pdf({ html: '<p>second</p>' });
    assert.equal((await first).status, 200);
    assert.equal(Buffer.from(file.bytes.subarray(0, 5)).toString('latin1'), '%PDF-');
    const refusals = attempts.slice(0, -1);
    const answers = attempts.map((a) => `${a.status} ${a.code ?? ''}`).join(', ');
    assert.equal(refusals[0]?.status, 429, `the first attempt found the slot taken: ${answers}`);
    for (const refusal of refusals) {
      // Once the slot is free, the server's one page may still be resetting: 503 service_busy, retried too.
      if (refusal.status === 503) {
        assert.equal(refusal.code, 'service_busy', answers);
        continue;
      }
      assert.equal(refusal.status, 429, answers);
      assert.equal(refusal.code, 'rate_limited');
      assert.equal(refusal.retryAfter, '1');
    }
    assert.equal(attempts.at(-1)?.status, 200);
    waits(attempts).forEach((waited, i) => {
      if (attempts[i]?.status === 429) assert.ok(waited >= 1000, `waited ${waited} ms after a 429`);
    });
    assert.equal(new Set(attempts.map((a) => a.idempotencyKey)).size, 1, 'one key for every attempt');
  });

  it('service_busy (no free page): backs off, doubling the wait, until the page is free', async () => {
    const t = await server.team('scale');
    const first = slowRenderOnFreePage(server.base, t.live, 3000);
    await renderingStarted(server, first);
    const { client, attempts } = observedClient(server.base, t.live, {
      maxAttempts: 8,
      busyBaseDelayMs: 250,
    });
    const file = await client.pdf({ html: '<p>second</p>' });
    assert.equal((await first).status, 200);
    assert.equal(Buffer.from(file.bytes.subarray(0, 5)).toString('latin1'), '%PDF-');
    const busy = attempts.slice(0, -1);
    assert.ok(busy.length >= 2, `answers: ${attempts.map((a) => a.status).join(', ')}`);
    for (const answer of busy) {
      assert.equal(answer.status, 503);
      assert.equal(answer.code, 'service_busy');
    }
    waits(attempts).forEach((waited, i) => {
      assert.ok(waited >= 250 * 2 ** i, `wait ${i + 1}: ${waited} ms, expected at least ${250 * 2 ** i}`);
    });
    assert.equal(attempts.at(-1)?.status, 200);
    assert.equal(new Set(attempts.map((a) => a.idempotencyKey)).size, 1);
  });

  it('internal_error: retried once at once, then reported; the next request works again', async () => {
    const t = await server.team('growth');
    const { client, attempts } = observedClient(server.base, t.live);
    const { db } = server.built.services;
    // A real fault: the documents table is missing while the request runs.
    await sql`ALTER TABLE documents RENAME TO documents_away`.execute(db);
    let error: unknown;
    try {
      error = await client.api.GET('/documents', { params: { query: { limit: 5 } } }).then((r) => r.error);
    } finally {
      await sql`ALTER TABLE documents_away RENAME TO documents`.execute(db);
    }
    assert.equal((error as { error?: { code?: string } })?.error?.code, 'internal_error');
    assert.deepEqual(
      attempts.map((a) => [a.status, a.code]),
      [
        [500, 'internal_error'],
        [500, 'internal_error'],
      ],
    );
    assert.ok((waits(attempts)[0] ?? 0) < 1000, 'the one retry is immediate');
    const listed = await client.api.GET('/documents', { params: { query: { limit: 5 } } });
    assert.equal(listed.response.status, 200);
    assert.equal(attempts.length, 3);
  });

  it('idempotency_conflict: the same key again after Retry-After, answered with the first document', async () => {
    const t = await server.team('scale');
    const key = `retry-${Date.now()}`;
    const body = { html: busyHtml(2000, 'keyed') };
    // The body the client sends (it asks for the binary answer): the same key with another body is a mismatch.
    const first = onFreePage(() =>
      api(server.base, 'POST', '/v1/pdf', {
        key: t.live,
        body: { ...body, response: 'binary' },
        headers: { 'idempotency-key': key },
      }),
    );
    await renderingStarted(server, first);
    const { client, attempts } = observedClient(server.base, t.live, { maxAttempts: 6 });
    const file = await client.pdf(body, { idempotencyKey: key });
    const original = await first;
    assert.equal(original.status, 200);
    assert.equal(file.documentId, original.headers.get('x-document-id'), 'the replay is the first document');
    assert.ok(attempts.length >= 2, `answers: ${attempts.map((a) => a.status).join(', ')}`);
    const conflicts = attempts.slice(0, -1);
    for (const conflict of conflicts) {
      assert.equal(conflict.status, 409);
      assert.equal(conflict.code, 'idempotency_conflict');
    }
    waits(attempts).forEach((waited, i) => {
      const retryAfter = Number(conflicts[i]?.retryAfter ?? 1);
      assert.ok(waited >= retryAfter * 1000, `wait ${i + 1}: ${waited} ms for Retry-After ${retryAfter}`);
    });
    assert.deepEqual(
      attempts.map((a) => a.idempotencyKey),
      attempts.map(() => key),
    );
    assert.equal(attempts.at(-1)?.status, 200);
  });

  it('other errors are final: one attempt', async () => {
    const t = await server.team('growth');
    const { client, attempts } = observedClient(server.base, t.live);
    const error = await client
      .pdf({ html: '<p>x</p>', template_id: '00000000-0000-4000-8000-000000000000' })
      .catch((err: unknown) => err);
    assert.ok(error instanceof QuireError);
    assert.equal(attempts.length, 1);
  });
});
