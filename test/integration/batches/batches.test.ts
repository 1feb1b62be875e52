import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifySignature } from '../../../src/webhooks/signing.js';
import { pdfText } from '../../helpers/pdf.js';
import { api, listPage, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { type Receiver, serverWithReceiver } from '../../helpers/webhook-receiver.js';
import { teamWithTemplate, unzipAll, waitForBatch } from './helpers.js';

describe('POST /batches with items: PDFs, ZIP, batch.completed', () => {
  let server: TestServer;
  let receiver: Receiver;
  serverWithReceiver({ workers: 1 }, (both) => ({ server, receiver } = both));

  it('renders one PDF per item, zips them under their names and sends batch.completed once', async () => {
    const { team: t, templateId } = await teamWithTemplate(server, 'growth');
    const endpoint = await api(server.base, 'POST', '/v1/webhooks', {
      key: t.live,
      body: { url: receiver.url('/batch'), events: ['batch.completed'] },
    });
    assert.equal(endpoint.status, 201);
    const items = [
      { data: { number: 'A-1', customer: { name: 'Ada' } } },
      { data: { number: 'A-2', customer: { name: 'Bob' } } },
      { data: { number: 'A-3', customer: { name: 'Cy' } }, filename: 'special' },
      // The same pattern result twice: de-duplicated inside the ZIP.
      { data: { number: 'A-1', customer: { name: 'Dup' } } },
    ];
    const created = await api(server.base, 'POST', '/v1/batches', {
      key: t.live,
      body: {
        template_id: templateId,
        items,
        filename_pattern: 'invoice-{{ number }}',
        metadata: { run: 'nightly' },
      },
    });
    assert.equal(created.status, 202, created.text);
    assert.equal(created.json.status, 'queued');
    assert.equal(created.json.test, false);
    assert.equal(created.json.template_id, templateId);
    assert.deepEqual(created.json.counts, {
      total: 4,
      queued: 4,
      processing: 0,
      succeeded: 0,
      failed: 0,
      canceled: 0,
    });
    assert.deepEqual(created.json.metadata, { run: 'nightly' });
    assert.equal(created.json.zip, null);
    assert.equal(created.headers.get('location'), `/v1/batches/${created.json.id}`);
    assert.equal(created.headers.get('cache-control'), 'no-store');

    const done = await waitForBatch(server.base, t.live, created.json.id);
    assert.equal(done.status, 'completed');
    assert.equal(done.counts.succeeded, 4);
    assert.ok(done.zip?.url, 'the ZIP link is on the batch');

    const zipResponse = await fetch(done.zip.url);
    assert.equal(zipResponse.status, 200);
    assert.equal(zipResponse.headers.get('content-type'), 'application/zip');
    const entries = await unzipAll(Buffer.from(await zipResponse.arrayBuffer()));
    assert.deepEqual(
      [...entries.keys()],
      ['invoice-A-1.pdf', 'invoice-A-2.pdf', 'special.pdf', 'invoice-A-1-2.pdf'],
    );
    const texts = await Promise.all([...entries.values()].map((pdf) => pdfText(pdf)));
    assert.match(texts[0] ?? '', /Invoice A-1 for Ada/);
    assert.match(texts[1] ?? '', /Invoice A-2 for Bob/);
    assert.match(texts[2] ?? '', /Invoice A-3 for Cy/);
    assert.match(texts[3] ?? '', /Invoice A-1 for Dup/);

    const delivery = await waitFor(
      'batch.completed',
      async () => receiver.received.find((r) => r.path === '/batch') ?? null,
    );
    const verdict = verifySignature(
      String(delivery.headers['quire-signature']),
      endpoint.json.secret,
      delivery.rawBody,
      {
        nowSeconds: Math.floor(Date.now() / 1000),
      },
    );
    assert.equal(verdict.ok, true);
    const event = JSON.parse(delivery.rawBody);
    assert.equal(event.type, 'batch.completed');
    assert.equal(event.data.id, created.json.id);
    assert.equal(event.data.status, 'completed');
    const fromEvent = await fetch(event.data.zip.url);
    assert.equal(fromEvent.status, 200, 'the event carries a working ZIP link');
    // Exactly once: nothing more arrives after the sweep of remaining jobs.
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(receiver.received.filter((r) => r.path === '/batch').length, 1);

    // Canceling a completed batch changes nothing.
    const late = await api(server.base, 'POST', `/v1/batches/${created.json.id}/cancel`, { key: t.live });
    assert.equal(late.status, 200);
    assert.equal(late.json.status, 'completed');

    // The link is signed: a changed signature is forbidden.
    const url = new URL(done.zip.url);
    url.searchParams.set('sig', 'a'.repeat(64));
    const forged = await api(server.base, 'GET', url.pathname + url.search);
    assert.equal(forged.status, 403);
    assert.equal(forged.json.error.code, 'forbidden');
  });

  it('pages items in order with their documents and batches newest first', async () => {
    const { team: t, templateId } = await teamWithTemplate(server, 'growth');
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const r = await api(server.base, 'POST', '/v1/batches', {
        key: t.test,
        body: {
          template_id: templateId,
          items: Array.from({ length: n }, (_, i) => ({
            data: { number: `${n}-${i}`, customer: { name: 'X' } },
          })),
        },
      });
      assert.equal(r.status, 202, r.text);
      assert.equal(r.json.test, true, 'a test key makes a test batch');
      ids.push(r.json.id);
    }
    const first = await listPage(server.base, t.test, '/v1/batches', 2);
    assert.deepEqual(first.ids, [ids[2], ids[1]]);
    assert.ok(first.next);
    const second = await listPage(server.base, t.test, '/v1/batches', 2, first.next);
    assert.deepEqual(second.ids, [ids[0]]);
    assert.equal(second.next, null);
    assert.equal(
      (await api(server.base, 'GET', '/v1/batches', { key: t.live })).json.data.length,
      3,
      'live keys see all',
    );

    const third = ids[2] as string;
    await waitForBatch(server.base, t.live, third);
    const page1 = await api(server.base, 'GET', `/v1/batches/${third}/items?limit=2`, { key: t.test });
    assert.equal(page1.status, 200);
    assert.deepEqual(
      page1.json.data.map((i: { index: number }) => i.index),
      [0, 1],
    );
    const item = page1.json.data[0];
    assert.equal(item.status, 'succeeded');
    assert.equal(item.filename, 'Invoice.pdf', 'default name: the template name');
    assert.equal(item.error_code, null);
    assert.equal(item.error_message, null);
    assert.equal(item.test, true);
    assert.match(
      await pdfText(Buffer.from(await (await fetch(item.document_url)).arrayBuffer())),
      /Invoice 3-0/,
    );
    const page2 = await api(
      server.base,
      'GET',
      `/v1/batches/${third}/items?limit=2&after=${page1.json.next_after}`,
      { key: t.test },
    );
    assert.deepEqual(
      page2.json.data.map((i: { index: number }) => i.index),
      [2],
    );
    assert.equal(page2.json.next_after, null);
  });

  it('keeps batches to their team and key mode (not_found)', async () => {
    const { team: owner, templateId } = await teamWithTemplate(server, 'growth');
    const other = await server.team('growth');
    const live = await api(server.base, 'POST', '/v1/batches', {
      key: owner.live,
      body: { template_id: templateId, items: [{ data: { number: '1', customer: { name: 'A' } } }] },
    });
    assert.equal(live.status, 202);
    for (const [key, path] of [
      [other.live, `/v1/batches/${live.json.id}`],
      [owner.test, `/v1/batches/${live.json.id}`],
      [other.live, `/v1/batches/${live.json.id}/items`],
    ] as const) {
      const r = await api(server.base, 'GET', path, { key });
      assert.equal(r.status, 404);
      assert.equal(r.json.error.code, 'not_found');
    }
    const cancel = await api(server.base, 'POST', `/v1/batches/${live.json.id}/cancel`, { key: other.live });
    assert.equal(cancel.status, 404);
  });

  it('a failing item fails alone and is reported with its error', async () => {
    const { team: t, templateId } = await teamWithTemplate(
      server,
      'growth',
      '{% for i in (1..pages) %}<p style="break-after: page">{{ i }}</p>{% endfor %}',
    );
    const r = await api(server.base, 'POST', '/v1/batches', {
      key: t.test,
      body: {
        template_id: templateId,
        items: [{ data: { pages: 60 } }, { data: { pages: 1 } }],
      },
    });
    assert.equal(r.status, 202, r.text);
    const done = await waitForBatch(server.base, t.live, r.json.id);
    assert.equal(done.counts.failed, 1);
    assert.equal(done.counts.succeeded, 1);
    const items = await api(server.base, 'GET', `/v1/batches/${r.json.id}/items`, { key: t.test });
    const failed = items.json.data[0];
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error_code, 'document_too_large');
    assert.ok(failed.error_message);
    assert.equal(failed.document_url, null);
    const entries = await unzipAll(Buffer.from(await (await fetch(done.zip.url)).arrayBuffer()));
    assert.deepEqual([...entries.keys()], ['Invoice.pdf'], 'only succeeded items are in the ZIP');
  });

  it('an item failing before rendering stays listed as failed, and the batch completes', async () => {
    // About 6 MB of HTML for the first item: over the 5 MB limit while preparing, before any rendering.
    const { team: t, templateId } = await teamWithTemplate(
      server,
      'growth',
      `{% for i in (1..n) %}<p>${'x'.repeat(1000)}</p>{% endfor %}`,
    );
    const r = await api(server.base, 'POST', '/v1/batches', {
      key: t.test,
      body: { template_id: templateId, items: [{ data: { n: 6000 } }, { data: { n: 1 } }] },
    });
    assert.equal(r.status, 202, r.text);
    const done = await waitForBatch(server.base, t.live, r.json.id);
    assert.equal(done.counts.failed, 1);
    assert.equal(done.counts.succeeded, 1);
    const items = await api(server.base, 'GET', `/v1/batches/${r.json.id}/items`, { key: t.test });
    assert.equal(items.json.data.length, 2);
    const [failed] = items.json.data;
    assert.equal(failed.index, 0);
    assert.equal(failed.status, 'failed');
    assert.ok(failed.error_code);
    assert.ok(failed.error_message);
    assert.equal(failed.document_url, null);
  });

  it("a failed item's error_message is its own render's words, not the code's description", async () => {
    const { team: t, templateId } = await teamWithTemplate(server, 'growth', '<p>{{ amount | money }}</p>');
    const r = await api(server.base, 'POST', '/v1/batches', {
      key: t.test,
      body: { template_id: templateId, items: [{ data: { amount: 3 } }] },
    });
    assert.equal(r.status, 202, r.text);
    const done = await waitForBatch(server.base, t.live, r.json.id);
    assert.equal(done.counts.failed, 1);
    const items = await api(server.base, 'GET', `/v1/batches/${r.json.id}/items`, { key: t.test });
    const [failed] = items.json.data;
    assert.equal(failed.error_code, 'template_render_error');
    assert.match(failed.error_message, /currency/i);
    const document = await api(server.base, 'GET', `/v1/pdf/${failed.id}`, { key: t.test });
    assert.equal(document.json.error_message, failed.error_message);
  });
});
