import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EINVOICE_FIXTURES } from '../../fixtures/einvoice-fixtures.js';
import { api, REQUEST_ID, renderedPdf, serverForBlock, type TestServer } from '../../helpers/server.js';
import { waitFor, waitUntil } from '../../helpers/wait.js';
import { type Receiver, serverWithReceiver } from '../../helpers/webhook-receiver.js';

const fixture = EINVOICE_FIXTURES.find((f) => f.name === 'two-rates-allowances-prepaid');
if (!fixture) throw new Error('fixture missing');
const invoice = fixture.invoice as Record<string, unknown>;

/** Behaviours of the one document lifecycle that the hardening issue found missing or wrong. */
describe('document lifecycle: headers, storage limits, event data', () => {
  let server: TestServer;
  let receiver: Receiver;
  serverWithReceiver({ workers: 1 }, (both) => ({ server, receiver } = both));

  it('a warning naming a non-Latin-1 variable is sent as an escaped header, not a 500', async () => {
    const { live } = await server.team('growth');
    const r = await renderedPdf(server, live, { html: '<p>{{ 数量 }}</p>', data: {} });
    assert.match(r.headers.get('x-request-id') ?? '', REQUEST_ID);
    const raw = r.headers.get('x-warnings') ?? '';
    assert.match(raw, /^[\x20-\x7e]*$/, 'header is plain ASCII');
    const warnings = JSON.parse(raw) as { code: string; path?: string }[];
    assert.deepEqual(
      warnings.map((w) => [w.code, w.path]),
      [['missing_variable', '["数量"]']],
    );
  });

  it('an XRechnung answer carries no x-pages header (nothing was paginated)', async () => {
    const { live } = await server.team('growth');
    const r = await renderedPdf(server, live, {
      e_invoice: { standard: 'xrechnung-ubl', profile: 'xrechnung', invoice },
    });
    assert.equal(r.headers.get('content-type'), 'application/xml');
    assert.equal(r.headers.get('x-pages'), null);
    assert.ok(r.headers.get('x-document-id'));
  });

  it('async renders are refused with storage_limit_reached when stored PDFs fill the plan, like url responses', async () => {
    const t = await server.team('free');
    const first = await renderedPdf(server, t.live, { html: '<p>fill</p>', response: 'url' });
    await server.built.services.db
      .updateTable('documents')
      .set({ stored_bytes: 10 ** 12 })
      .where('id', '=', first.json.id)
      .execute();
    for (const extra of [{ async: true }, { response: 'url' }]) {
      const r = await api(server.base, 'POST', '/v1/pdf', {
        key: t.live,
        body: { html: '<p>x</p>', ...extra },
      });
      assert.equal(r.status, 429, JSON.stringify(extra));
      assert.equal(r.json.error.code, 'storage_limit_reached');
    }
    const binary = await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: '<p>still</p>' } });
    assert.equal(binary.status, 200, 'a live binary response is still returned, just not stored');
  });

  it('pdf.created event data carries warnings, blocked_resources and e_invoice like the url response', async () => {
    const t = await server.team('growth');
    await api(server.base, 'POST', '/v1/webhooks', {
      key: t.live,
      body: { url: receiver.url('/extras'), events: ['pdf.created'] },
    });
    const html = '<p>{{ missing }}</p><img src="http://10.255.255.1/x.png">';
    const queued = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html, data: {}, async: true },
    });
    assert.equal(queued.status, 202);
    const direct = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { e_invoice: { standard: 'factur-x', profile: 'en16931', invoice }, response: 'url' },
    });
    assert.equal(direct.status, 200);
    const events = await waitFor('two pdf.created events', async () => {
      const got = receiver.received.filter((r) => r.path === '/extras').map((r) => JSON.parse(r.rawBody));
      return got.length >= 2 ? got : null;
    });
    const background = events.find((e) => e.data.id === queued.json.id);
    assert.ok(background, 'event of the async document');
    assert.deepEqual(
      background.data.warnings.map((w: { code: string; path?: string }) => [w.code, w.path]),
      [['missing_variable', 'missing']],
    );
    assert.equal(background.data.blocked_resources.length, 1);
    assert.match(background.data.blocked_resources[0], /^http:\/\/10\.255\.255\.1\/x\.png: /);
    assert.equal(background.data.e_invoice, undefined);
    const einvoice = events.find((e) => e.data.id === direct.json.id);
    assert.deepEqual(einvoice.data.e_invoice, direct.json.e_invoice);
    assert.deepEqual(einvoice.data.warnings, []);
    assert.deepEqual(einvoice.data.blocked_resources, []);
  });

  it('a queued template that fails while rendering stays at its Location as failed, with its message, and in the log', async () => {
    const t = await server.team('growth');
    await api(server.base, 'POST', '/v1/webhooks', {
      key: t.live,
      body: { url: receiver.url('/failed-queued'), events: ['pdf.failed'] },
    });
    const created = await api(server.base, 'POST', '/v1/templates', {
      key: t.live,
      body: { name: 'needs a currency', html: '<p>{{ amount | money }}</p>' },
    });
    assert.equal(created.status, 201, created.text);
    const queued = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { template_id: created.json.id, data: { amount: 12.5 }, async: true },
    });
    assert.equal(queued.status, 202, queued.text);
    const location = new URL(queued.headers.get('location') ?? '', server.base).pathname;
    const failed = await waitFor('the queued document to fail', async () => {
      const r = await api(server.base, 'GET', location, { key: t.live });
      return r.status === 200 && r.json.status === 'failed' ? r : null;
    });
    assert.equal(failed.json.id, queued.json.id);
    assert.equal(failed.json.error_code, 'template_render_error');
    assert.match(failed.json.error_message, /currency/i, 'the filter says what it needs');
    assert.equal(failed.json.pages, null);
    assert.equal(failed.json.url, null);
    const log = await api(server.base, 'GET', '/v1/documents?status=failed', { key: t.live });
    assert.deepEqual(
      log.json.data.map((d: { id: string }) => d.id),
      [queued.json.id],
    );
    const event = await waitFor('its pdf.failed event', async () => {
      const got = receiver.received
        .filter((r) => r.path === '/failed-queued')
        .map((r) => JSON.parse(r.rawBody));
      return got[0] ?? null;
    });
    assert.equal(event.data.id, queued.json.id);
    assert.equal(event.data.error_code, 'template_render_error');
    assert.equal(event.data.error_message, failed.json.error_message);
  });
});

describe('template thumbnails: slots and remembered failures', () => {
  let server: TestServer;
  // A short render limit for the spinning template; the tests above keep the default, since a factur-x
  // render beside the whole suite can take longer than 3 s.
  serverForBlock((s) => (server = s), { renderTimeoutMs: 3_000 });

  it("template thumbnails take the owning team's render slot, and a failing version is not rendered again", async () => {
    const t = await server.team('free');
    const created = await api(server.base, 'POST', '/v1/templates', {
      key: t.live,
      body: { name: 'spin', html: '<script>for(;;){}</script><p>never</p>' },
    });
    assert.equal(created.status, 201);
    const thumb = new URL(created.json.thumbnail_url);
    const firstThumb = fetch(thumb);
    // The thumbnail takes the team's slot before its render reaches a page.
    await waitUntil(
      'the thumbnail to be rendering',
      async () => (await server.built.services.renderer.stats())?.busy === 1,
    );
    const direct = await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: '<p>x</p>' } });
    assert.equal(direct.status, 429, 'free plan: one render at once, held by the thumbnail');
    assert.equal(direct.json.error.details.reason, 'concurrency');
    const first = await firstThumb;
    assert.equal(first.status, 504);
    const started = Date.now();
    const again = await fetch(thumb);
    const elapsed = Date.now() - started;
    assert.equal(again.status, 504);
    assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'render_timeout');
    // Not rendered again: a new render of this template cannot answer before the 3 s render limit (it spins
    // until then), so an answer below it came from the remembered failure.
    assert.ok(elapsed < 3_000, `answered in ${elapsed} ms`);
  });

  it('a thumbnail leaves one slot to direct requests and waits for a free one instead of failing', async () => {
    const t = await server.team('starter'); // two renders at once
    const create = async (name: string, html: string) => {
      const created = await api(server.base, 'POST', '/v1/templates', { key: t.live, body: { name, html } });
      assert.equal(created.status, 201);
      return new URL(created.json.thumbnail_url);
    };
    const finished: string[] = [];
    const spinning = fetch(await create('spin', '<script>for(;;){}</script><p>never</p>')).finally(() =>
      finished.push('spin'),
    );
    await waitUntil(
      'the spinning thumbnail to be rendering',
      async () => (await server.built.services.renderer.stats())?.busy === 1,
    );
    // The second thumbnail finds the one slot thumbnails may take held: it waits (no 429) ...
    const waiting = fetch(await create('letter', '<p>Dear customer</p>')).finally(() =>
      finished.push('letter'),
    );
    // ... while a direct request still gets the slot left for it.
    const direct = await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: '<p>x</p>' } });
    assert.equal(direct.status, 200, 'the slot thumbnails leave free');
    assert.equal((await spinning).status, 504);
    const letter = await waiting;
    assert.equal(letter.status, 200, 'rendered once the spinning one gave its slot back');
    assert.equal(letter.headers.get('content-type'), 'image/png');
    // Whichever reached the server first, the letter's thumbnail could not render before the spinning one
    // gave its slot back (3 s): had it taken the slot left for direct requests, it would have ended first.
    assert.deepEqual(finished, ['spin', 'letter']);
  });
});

describe('service_busy: storing paused for low disk, too many documents in preparation', () => {
  let server: TestServer;
  serverForBlock((s) => (server = s), { maxPreparing: 1 }, { freeDiskBytes: () => 1024 });

  it('low disk: url and async answers get 503, a live binary answer still works without a stored copy', async () => {
    const t = await server.team('growth');
    for (const extra of [{ response: 'url' }, { async: true }]) {
      const r = await api(server.base, 'POST', '/v1/pdf', {
        key: t.live,
        body: { html: '<p>x</p>', ...extra },
      });
      assert.equal(r.status, 503, JSON.stringify(extra));
      assert.equal(r.json.error.code, 'service_busy');
      assert.match(r.json.error.message, /low on disk/);
    }
    const binary = await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: '<p>kept?</p>' } });
    assert.equal(binary.status, 200);
    const doc = await api(server.base, 'GET', `/v1/pdf/${binary.headers.get('x-document-id')}`, {
      key: t.live,
    });
    assert.equal(doc.json.status, 'succeeded');
    assert.equal(doc.json.url, null, 'not stored while storing is paused');
  });

  it('the preparation bound releases every request: one at a time, all are served', async () => {
    const t = await server.team('scale');
    for (let i = 0; i < 3; i++) {
      const r = await api(server.base, 'POST', '/v1/pdf', {
        key: t.live,
        body: { html: '<p>{{ n }}</p>', data: { n: i } },
      });
      assert.equal(r.status, 200);
    }
    const bad = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '{{ 1 | money: "x" }}', data: {} },
    });
    assert.equal(bad.status, 422, 'a failed preparation leaves too');
    const after = await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: '<p>ok</p>' } });
    assert.equal(after.status, 200);
  });
});
