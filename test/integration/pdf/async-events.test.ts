import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifySignature } from '../../../src/webhooks/signing.js';
import { pdfText } from '../../helpers/pdf.js';
import { api, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { type Receiver, serverWithReceiver } from '../../helpers/webhook-receiver.js';

describe('async POST /pdf and pdf.* webhook events', () => {
  let server: TestServer;
  let receiver: Receiver;
  serverWithReceiver({ workers: 1 }, (both) => ({ server, receiver } = both));

  it('queues with 202 and Location, renders in the background, stores the PDF and sends a signed pdf.created', async () => {
    const t = await server.team('growth');
    const endpoint = await api(server.base, 'POST', '/v1/webhooks', {
      key: t.live,
      body: { url: receiver.url('/live'), events: ['pdf.created', 'pdf.failed'] },
    });
    assert.equal(endpoint.status, 201);
    const queued = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '<p>Hello {{ who }}</p>', data: { who: 'async' }, async: true, metadata: { ref: 'A1' } },
    });
    assert.equal(queued.status, 202);
    assert.equal(queued.json.status, 'queued');
    assert.equal(queued.headers.get('location'), `/v1/pdf/${queued.json.id}`);
    const doc = await waitFor('the background render', async () => {
      const r = await api(server.base, 'GET', `/v1/pdf/${queued.json.id}`, { key: t.live });
      return r.json.status === 'succeeded' ? r.json : null;
    });
    assert.equal(doc.pages, 1);
    assert.ok(doc.url, 'a background PDF is always stored');
    const file = Buffer.from(await (await fetch(doc.url)).arrayBuffer());
    assert.match(await pdfText(file), /Hello async/);
    const delivery = await waitFor(
      'the webhook',
      async () => receiver.received.find((r) => r.path === '/live') ?? null,
    );
    const secret = endpoint.json.secret as string;
    const verdict = verifySignature(String(delivery.headers['quire-signature']), secret, delivery.rawBody, {
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    assert.equal(verdict.ok, true);
    const event = JSON.parse(delivery.rawBody);
    assert.equal(event.type, 'pdf.created');
    assert.equal(event.livemode, true);
    assert.equal(event.data.id, queued.json.id);
    assert.deepEqual(event.data.metadata, { ref: 'A1' });
    assert.equal(event.data.batch_id, null);
    assert.equal(delivery.headers['quire-event-id'], event.id);
    const usage = await api(server.base, 'GET', '/v1/account/usage', { key: t.live });
    assert.equal(usage.json.docs_used, 1, 'counted once');
  });

  it('sends pdf.failed for a failed direct render, to the endpoint of the matching mode only', async () => {
    const t = await server.team('growth');
    await api(server.base, 'POST', '/v1/webhooks', {
      key: t.test,
      body: { url: receiver.url('/test-mode'), events: ['pdf.failed'] },
    });
    await api(server.base, 'POST', '/v1/webhooks', {
      key: t.live,
      body: { url: receiver.url('/live-mode'), events: ['pdf.failed'] },
    });
    const pages = Array.from({ length: 60 }, (_, i) => `<p style="break-after: page">page ${i}</p>`).join('');
    const failed = await api(server.base, 'POST', '/v1/pdf', { key: t.test, body: { html: pages } });
    assert.equal(failed.status, 413);
    assert.equal(failed.json.error.code, 'document_too_large');
    const event = await waitFor(
      'pdf.failed',
      async () => receiver.received.find((r) => r.path === '/test-mode') ?? null,
    );
    const body = JSON.parse(event.rawBody);
    assert.equal(body.type, 'pdf.failed');
    assert.equal(body.livemode, false);
    assert.equal(body.data.status, 'failed');
    assert.equal(body.data.error_code, 'document_too_large');
    assert.equal(body.data.pages, null);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(receiver.received.filter((r) => r.path === '/live-mode').length, 0);
  });

  it('reports validation errors of an async request synchronously and queues nothing', async () => {
    const t = await server.team('growth');
    const bad = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '{{ x | nosuch }}', data: {}, async: true },
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.json.error.code, 'template_render_error');
    const missing = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { template_id: '00000000-0000-4000-8000-000000000000', async: true },
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error.code, 'template_not_found');
    assert.equal((await api(server.base, 'GET', '/v1/documents', { key: t.live })).json.data.length, 0);
  });
});
