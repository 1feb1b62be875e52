import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  QuireClient,
  QuireError,
  retryDelayMs,
  SIGNATURE_HEADER,
  verifyWebhookSignature,
} from '../../../clients/typescript/src/index.js';
import { serverWithTeam, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { startReceiver } from '../../helpers/webhook-receiver.js';

/** The TypeScript client (clients/typescript) against the real server: real HTTP, Chromium and SQLite. */
describe('TypeScript client against a running server', () => {
  let server: TestServer;
  let client: QuireClient;
  let testClient: QuireClient;
  serverWithTeam(
    'growth',
    ({ server: started, team }) => {
      server = started;
      client = new QuireClient({ baseUrl: server.base, apiKey: team.live });
      testClient = new QuireClient({ baseUrl: server.base, apiKey: team.test });
    },
    { allowPrivateWebhooks: true },
  );

  it('downloads the binary PDF with its headers read', async () => {
    const file = await testClient.pdf({ html: '<h1>Hello</h1>', filename: 'hello' });
    assert.equal(file.contentType, 'application/pdf');
    assert.equal(Buffer.from(file.bytes.subarray(0, 5)).toString('latin1'), '%PDF-');
    assert.equal(file.pages, 1);
    assert.equal(file.filename, 'hello.pdf');
    assert.match(file.documentId, /^[0-9a-f-]{36}$/);
    assert.deepEqual(file.warnings, []);
  });

  it('gets the url response and downloads the signed link', async () => {
    const document = await testClient.pdfUrl({ html: '<p>{{ name }}</p>', data: { name: 'Ada' } });
    assert.equal(document.status, 'succeeded');
    assert.ok(document.url);
    const bytes = await testClient.download(document.url);
    assert.equal(Buffer.from(bytes.subarray(0, 5)).toString('latin1'), '%PDF-');
  });

  it('merges a stored document after the PDF (extension append, typed in the client)', async () => {
    const terms = await testClient.pdfUrl({ html: '<p>Terms</p><p style="break-before:page">More</p>' });
    const file = await testClient.pdf({ html: '<p>Letter</p>', append: [{ document_id: terms.id }] });
    assert.equal(file.pages, 3);
    await assert.rejects(
      testClient.pdf({
        html: '<p>x</p>',
        prepend: [{ pdf_base64: Buffer.from('no pdf').toString('base64') }],
      }),
      (err: unknown) => err instanceof QuireError && err.code === 'invalid_request' && err.status === 400,
    );
  });

  it('queues an async PDF and polls until it is ready', async () => {
    const queued = await testClient.pdfAsync({ html: '<p>later</p>' });
    assert.equal(queued.status, 'queued');
    const done = await testClient.waitForDocument(queued.id, { intervalMs: 200, timeoutMs: 60_000 });
    assert.equal(done.status, 'succeeded');
    assert.equal(done.pages, 1);
  });

  it('throws a typed error with the code, status and request id', async () => {
    const error = await testClient
      .pdf({ html: '<p>x</p>', template_id: '00000000-0000-4000-8000-000000000000' })
      .then(
        () => assert.fail('expected an error'),
        (err: unknown) => err,
      );
    assert.ok(error instanceof QuireError);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_request');
    assert.match(error.requestId ?? '', /^req_[0-9a-f]{32}$/);
    const missing = await testClient
      .document('00000000-0000-4000-8000-000000000000')
      .catch((err: unknown) => err);
    assert.ok(missing instanceof QuireError);
    assert.equal(missing.code, 'document_not_found');
  });

  it('verifies the signature of a real delivery, with both secrets after a rotation', async () => {
    const receiver = await startReceiver();
    try {
      const created = await client.api.POST('/webhooks', {
        body: { url: receiver.url('/hook'), events: ['pdf.created'] },
      });
      const endpoint = created.data;
      assert.ok(endpoint?.secret, `create: ${created.response.status}`);
      await client.api.POST('/webhooks/{id}/test', { params: { path: { id: endpoint.id } } });
      const first = await waitFor('first delivery', async () => receiver.received[0] ?? null);
      const header = String(first.headers[SIGNATURE_HEADER]);
      assert.deepEqual(verifyWebhookSignature(first.rawBody, header, { secret: endpoint.secret }).ok, true);
      assert.deepEqual(verifyWebhookSignature(`${first.rawBody} `, header, { secret: endpoint.secret }), {
        ok: false,
        reason: 'mismatch',
      });
      const late = Number(/t=(\d+)/.exec(header)?.[1]) + 301;
      assert.deepEqual(
        verifyWebhookSignature(first.rawBody, header, { secret: endpoint.secret, nowSeconds: late }),
        {
          ok: false,
          reason: 'too_old',
        },
      );

      const rotated = await client.api.POST('/webhooks/{id}/rotate-secret', {
        params: { path: { id: endpoint.id } },
      });
      const newSecret = rotated.data?.secret;
      assert.ok(newSecret);
      await client.api.POST('/webhooks/{id}/test', { params: { path: { id: endpoint.id } } });
      const second = await waitFor('second delivery', async () => receiver.received[1] ?? null);
      const both = String(second.headers[SIGNATURE_HEADER]);
      assert.equal((both.match(/v1=/g) ?? []).length, 2);
      assert.equal(verifyWebhookSignature(second.rawBody, both, { secret: endpoint.secret }).ok, true);
      assert.equal(verifyWebhookSignature(second.rawBody, both, { secret: newSecret }).ok, true);
      assert.equal(verifyWebhookSignature(second.rawBody, both, { secret: 'whsec_other' }).ok, false);
    } finally {
      await receiver.close();
    }
  });

  it('follows the retry rules: Retry-After, service_busy backoff, internal_error once, conflicts later, others never', async () => {
    const settings = { maxAttempts: 4, busyBaseDelayMs: 2000, maxDelayMs: 60_000 };
    const answer = (status: number, code: string, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify({ error: { code, message: 'm', docs_url: 'd' } }), {
        status,
        headers: { 'content-type': 'application/json', ...headers },
      });
    assert.equal(await retryDelayMs(answer(429, 'rate_limited', { 'retry-after': '3' }), 1, settings), 3000);
    assert.equal(await retryDelayMs(answer(429, 'rate_limited'), 1, settings), null);
    assert.equal(await retryDelayMs(answer(503, 'service_busy'), 1, settings), 2000);
    assert.equal(await retryDelayMs(answer(503, 'service_busy'), 3, settings), 8000);
    assert.equal(await retryDelayMs(answer(500, 'internal_error'), 1, settings), 0);
    assert.equal(await retryDelayMs(answer(500, 'internal_error'), 2, settings), null);
    assert.equal(await retryDelayMs(answer(422, 'template_render_error'), 1, settings), null);
    assert.equal(await retryDelayMs(answer(429, 'rate_limited', { 'retry-after': '1' }), 4, settings), null);
    // idempotency_conflict: Retry-After doubled per attempt (the first request may render for a while).
    assert.equal(
      await retryDelayMs(answer(409, 'idempotency_conflict', { 'retry-after': '1' }), 1, settings),
      1000,
    );
    assert.equal(
      await retryDelayMs(answer(409, 'idempotency_conflict', { 'retry-after': '1' }), 3, settings),
      4000,
    );
    assert.equal(await retryDelayMs(answer(409, 'idempotency_conflict'), 1, settings), 2000);
    assert.equal(await retryDelayMs(answer(422, 'idempotency_mismatch'), 1, settings), null);
  });
});
