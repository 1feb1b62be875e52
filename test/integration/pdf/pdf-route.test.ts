import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { updateTeam } from '../../../src/accounts/teams.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { pdfInfo, pdfText } from '../../helpers/pdf.js';
import { api, forgeSignature, listPage, serverWithTeam, type TestServer } from '../../helpers/server.js';

const INVOICE =
  '<h1>Invoice {{ number }}</h1>{% for item in items %}<p>{{ item.name }}: {{ item.price }} {{ item.discount }}</p>{% endfor %}';

describe('POST /pdf end to end', () => {
  const clock = new ManualClock(new Date('2026-03-10T12:00:00Z'));
  let server: TestServer;
  let keys: { live: string; test: string };
  serverWithTeam('growth', (both) => ({ server, team: keys } = both), { renderTimeoutMs: 8000 }, { clock });

  it('renders Liquid HTML with data to a binary PDF with every documented header', async () => {
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.live,
      body: {
        html: INVOICE,
        data: {
          number: 'INV-7',
          items: [
            { name: 'Apples', price: 3 },
            { name: 'Pears', price: 4 },
          ],
        },
        filename: 'Rechnung März/7',
      },
    });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/pdf');
    assert.equal(r.headers.get('content-disposition'), 'attachment; filename="Rechnung-M-rz-7.pdf"');
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.equal(r.headers.get('x-pages'), '1');
    assert.equal(r.headers.get('x-blocked-resources'), '0');
    assert.deepEqual(JSON.parse(r.headers.get('x-warnings') ?? ''), [
      { code: 'missing_variable', path: 'items[].discount' },
    ]);
    const text = await pdfText(r.buffer);
    assert.match(text, /Invoice INV-7/);
    assert.match(text, /Apples: 3/);
    assert.match(text, /Pears: 4/);
    assert.doesNotMatch(text.replace(/\s+/g, ''), /TESTDOCUMENT/);
    const doc = await api(server.base, 'GET', `/v1/pdf/${r.headers.get('x-document-id')}`, {
      key: keys.live,
    });
    assert.equal(doc.status, 200);
    assert.equal(doc.json.status, 'succeeded');
    assert.equal(doc.json.pages, 1);
    assert.equal(doc.json.bytes, r.buffer.length);
    assert.equal(doc.json.mode, 'fast');
    assert.equal(doc.json.test, false);
    assert.equal(doc.json.metadata, undefined);
    assert.ok(doc.json.url, 'a live binary PDF is stored');
  });

  it('uses html as is without data (Liquid only with data)', async () => {
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.live,
      body: { html: '<p>Total {{ literally }}</p>' },
    });
    assert.equal(r.status, 200);
    assert.match(await pdfText(r.buffer), /Total \{\{ literally \}\}/);
    assert.equal(r.headers.get('x-warnings'), '[]');
  });

  it('puts css before the html and sizes pages from format and orientation', async () => {
    const cases: Array<[unknown, string | undefined, number, number]> = [
      ['A4', 'portrait', 595, 842],
      ['A4', 'landscape', 842, 595],
      ['Letter', undefined, 612, 792],
      [{ width: '100mm', height: '50mm' }, undefined, 283, 142],
    ];
    for (const [format, orientation, w, h] of cases) {
      const r = await api(server.base, 'POST', '/v1/pdf', {
        key: keys.live,
        body: {
          html: '<p class="x">styled</p>',
          css: '.x { color: red }',
          format,
          ...(orientation ? { orientation } : {}),
          margins: '0',
        },
      });
      assert.equal(r.status, 200, JSON.stringify(format));
      const info = await pdfInfo(r.buffer);
      assert.ok(Math.abs(info.width - w) < 1.5, `width ${info.width} ≈ ${w}`);
      assert.ok(Math.abs(info.height - h) < 1.5, `height ${info.height} ≈ ${h}`);
    }
  });

  it('answers response: url with the Document, filename, metadata, warnings and working signed links', async () => {
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.live,
      body: { html: '<p>stored</p>', response: 'url', metadata: { order: 42 } },
    });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.equal(r.json.filename, 'document.pdf');
    assert.deepEqual(r.json.metadata, { order: 42 });
    assert.deepEqual(r.json.warnings, []);
    assert.deepEqual(r.json.blocked_resources, []);
    assert.equal(r.json.expires_at, '2026-05-09T12:00:00.000Z', 'growth keeps live PDFs 60 days');
    const file = await fetch(r.json.url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-disposition'), 'inline; filename="document.pdf"');
    assert.equal(file.headers.get('cache-control'), 'private, max-age=300');
    assert.equal(file.headers.get('content-security-policy'), 'sandbox');
    assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
    assert.match(await pdfText(Buffer.from(await file.arrayBuffer())), /stored/);
    const download = await fetch(`${r.json.url}&download=1`);
    assert.equal(download.headers.get('content-disposition'), 'attachment; filename="document.pdf"');
    const forged = await fetch(forgeSignature(r.json.url));
    assert.equal(forged.status, 403);
    assert.equal((await forged.json()).error.code, 'forbidden');
    const thumb = await fetch(r.json.thumbnail_url);
    assert.equal(thumb.status, 200);
    assert.equal(thumb.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await thumb.arrayBuffer());
    assert.equal(png.readUInt32BE(16), 480, 'thumbnail is 480 px wide');
  });

  it('watermarks test documents on every page, does not store test binaries, and hides live documents from test keys', async () => {
    const html =
      '<div style="page-break-after:always">one</div><div style="page-break-after:always">two</div><div>three</div>';
    const test = await api(server.base, 'POST', '/v1/pdf', { key: keys.test, body: { html } });
    assert.equal(test.status, 200);
    // The watermark is diagonal, so extracted text breaks it up: compare without white space.
    const squashed = async (pdf: Buffer, page?: number) => (await pdfText(pdf, page)).replace(/\s+/g, '');
    for (const page of [1, 2, 3])
      assert.match(await squashed(test.buffer, page), /TESTDOCUMENT/, `page ${page}`);
    const testDoc = await api(server.base, 'GET', `/v1/pdf/${test.headers.get('x-document-id')}`, {
      key: keys.test,
    });
    assert.equal(testDoc.json.test, true);
    assert.equal(testDoc.json.url, null);
    assert.equal(testDoc.json.expires_at, null);
    const live = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.live,
      body: { html: '<p>x</p>', test: true },
    });
    assert.match(
      await squashed(live.buffer),
      /TESTDOCUMENT/,
      'test: true with a live key is a test document',
    );
    const liveDoc = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.live,
      body: { html: '<p>live</p>' },
    });
    const hidden = await api(server.base, 'GET', `/v1/pdf/${liveDoc.headers.get('x-document-id')}`, {
      key: keys.test,
    });
    assert.equal(hidden.status, 404);
    assert.equal(hidden.json.error.code, 'document_not_found');
    const testList = await api(server.base, 'GET', '/v1/documents?limit=100', { key: keys.test });
    assert.ok(testList.json.data.every((d: { test: boolean }) => d.test));
  });

  it('pages the document log newest first with a stable cursor', async () => {
    const t = await server.team('pro');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      const r = await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: `<p>${i}</p>` } });
      ids.push(r.headers.get('x-document-id') ?? '');
    }
    const first = await listPage(server.base, t.live, '/v1/documents', 2);
    assert.deepEqual(first.ids, [ids[4], ids[3]]);
    clock.advance(1000);
    await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: '<p>new</p>' } });
    const second = await listPage(server.base, t.live, '/v1/documents', 2, first.next);
    assert.deepEqual(second.ids, [ids[2], ids[1]]);
    const third = await listPage(server.base, t.live, '/v1/documents', 2, second.next);
    assert.deepEqual(third.ids, [ids[0]]);
    assert.equal(third.next, null);
    assert.equal(
      (await api(server.base, 'GET', '/v1/documents?before=garbage', { key: t.live })).status,
      400,
    );
    assert.equal((await api(server.base, 'GET', '/v1/documents?limit=101', { key: t.live })).status, 400);
  });

  it('counts live successes once in usage and never test documents', async () => {
    const t = await server.team('starter');
    await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: '<p>a</p>' } });
    await api(server.base, 'POST', '/v1/pdf', { key: t.test, body: { html: '<p>b</p>' } });
    await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: '<p>c</p>', test: true } });
    const usage = await api(server.base, 'GET', '/v1/account/usage', { key: t.live });
    assert.equal(usage.json.docs_used, 1);
  });

  it('refuses live renders past the plan documents with plan_limit_reached and renders none', async () => {
    const t = await server.team('free');
    server.built.services.plans.free.docs_per_period = 2;
    try {
      for (let i = 0; i < 2; i++)
        assert.equal(
          (await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: '<p>x</p>' } })).status,
          200,
        );
      const refused = await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: '<p>x</p>' } });
      assert.equal(refused.status, 402);
      assert.equal(refused.json.error.code, 'plan_limit_reached');
      assert.equal(
        (await api(server.base, 'POST', '/v1/pdf', { key: t.test, body: { html: '<p>x</p>' } })).status,
        200,
        'test keys are not counted',
      );
      const log = await api(server.base, 'GET', '/v1/documents', { key: t.live });
      assert.equal(log.json.data.length, 3, 'the refused request made no document');
    } finally {
      server.built.services.plans.free.docs_per_period = 100;
    }
  });

  it('enforces storage quotas: full plan storage still returns a live binary PDF unstored, url gets storage_limit_reached', async () => {
    const t = await server.team('growth');
    const plans = server.built.services.plans;
    const saved = plans.growth.storage_bytes;
    plans.growth.storage_bytes = 0;
    try {
      const binary = await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: '<p>x</p>' } });
      assert.equal(binary.status, 200);
      const doc = await api(server.base, 'GET', `/v1/pdf/${binary.headers.get('x-document-id')}`, {
        key: t.live,
      });
      assert.equal(doc.json.url, null);
      const url = await api(server.base, 'POST', '/v1/pdf', {
        key: t.live,
        body: { html: '<p>x</p>', response: 'url' },
      });
      assert.equal(url.status, 429);
      assert.equal(url.json.error.code, 'storage_limit_reached');
      assert.deepEqual(url.json.error.details, { scope: 'plan' });
    } finally {
      plans.growth.storage_bytes = saved;
    }
  });

  it('refuses renders beyond the plan concurrency with 429 concurrency and Retry-After: 1', async () => {
    const t = await server.team('free');
    const slow = '<p>slow</p><script>const end = Date.now() + 1500; while (Date.now() < end) {}</script>';
    const results = await Promise.all(
      [0, 1, 2].map(() => api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: slow } })),
    );
    const limited = results.filter((r) => r.status === 429);
    assert.ok(results.some((r) => r.status === 200));
    assert.ok(limited.length >= 1);
    for (const r of limited) {
      assert.equal(r.json.error.code, 'rate_limited');
      assert.deepEqual(r.json.error.details, { reason: 'concurrency', limit: 1 });
      assert.equal(r.headers.get('retry-after'), '1');
    }
  });

  it('records failed renders (timeout) with error_code and null pages, and enforces the request rules', async () => {
    const timeout = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.live,
      body: { html: '<script>while(true){}</script>' },
    });
    assert.equal(timeout.status, 504);
    assert.equal(timeout.json.error.code, 'render_timeout');
    const log = await api(server.base, 'GET', '/v1/documents?limit=1', { key: keys.live });
    assert.equal(log.json.data[0].status, 'failed');
    assert.equal(log.json.data[0].error_code, 'render_timeout');
    assert.equal(log.json.data[0].pages, null);
    const rules: Array<[unknown, RegExp]> = [
      [{}, /template_id|html/],
      [{ html: '<p/>', template_id: '00000000-0000-4000-8000-000000000000' }, /not both/],
      [{ css: 'p{}' }, /html/],
      [{ html: '<p/>', margins: '10 mm' }, /margins/],
      [{ html: '<p/>', format: { width: '10mm', height: '10mm' }, orientation: 'sideways' }, /orientation/],
      [{ html: '<p/>', metadata: { big: 'x'.repeat(9000) } }, /metadata/],
      [
        { html: '<p/>', metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])) },
        /metadata/,
      ],
      [{ html: '<p/>', filename: 'x'.repeat(101) }, /filename/],
    ];
    for (const [body, message] of rules) {
      const r = await api(server.base, 'POST', '/v1/pdf', { key: keys.live, body });
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(r.json.error.code, 'invalid_request');
      assert.match(r.json.error.message, message);
    }
    const liquid = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.live,
      body: { html: '<p>{{ x | nosuchfilter }}</p>', data: {} },
    });
    assert.equal(liquid.status, 422);
    assert.equal(liquid.json.error.code, 'template_render_error');
    assert.equal(typeof liquid.json.error.details?.line, 'number');
  });

  it('deletes expired files in the retention sweep; links then answer file_expired', async () => {
    const t = await server.team('free');
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '<p>old</p>', response: 'url' },
    });
    clock.advance(8 * 86_400_000);
    await server.built.services.sweeper.runOnce();
    const doc = await api(server.base, 'GET', `/v1/pdf/${r.json.id}`, { key: t.live });
    assert.equal(doc.json.url, null);
    const gone = await fetch(r.json.url);
    assert.equal(gone.status, 410);
    assert.equal((await gone.json()).error.code, 'file_expired');
  });

  it('keeps a suspended team out of POST /pdf', async () => {
    const t = await server.team('growth');
    await updateTeam(server.built.services.db, t.team.id, { suspended: true });
    assert.equal(
      (await api(server.base, 'POST', '/v1/pdf', { key: t.live, body: { html: '<p/>' } })).status,
      403,
    );
  });
});
