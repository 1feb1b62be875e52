import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EINVOICE_FIXTURES } from '../../fixtures/einvoice-fixtures.js';
import { pdfInfo, pdfTool } from '../../helpers/pdf.js';
import { randomJson, rng } from '../../helpers/random.js';
import { api, serverWithTeam, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { unzipAll, waitForBatch } from '../batches/helpers.js';
import {
  checkAttachments,
  checkMetadata,
  checkOutline,
  checkPdfAConformance,
  checkPdfUa,
  checkProtect,
  checkStamp,
  checkTagged,
  type FinishingBody,
  NO_LANG_HTML,
  REPORT_HTML,
} from './finishing-checks.js';

const CSV = Buffer.from('id,amount\n1,9.50\n').toString('base64');
const XML = Buffer.from('<order id="7"/>').toString('base64');

/** The finishing fields of a request, and the names inside them: what the fuzz tests aim random values at. */
const FINISHING_FIELDS = [
  'pdf_a',
  'pdf_ua',
  'tagged',
  'outline',
  'pdf_metadata',
  'attachments',
  'stamp',
  'protect',
] as const;
const FINISHING_INNER_FIELDS = [
  'title',
  'language',
  'filename',
  'content_base64',
  'mime_type',
  'text',
  'pages',
  'owner_password',
] as const;

/** Every check that applies to an accepted body ("Checks in the tests"). */
async function checkAll(pdf: Buffer, body: FinishingBody): Promise<void> {
  const pdfUa = body.pdf_ua === true;
  if (body.tagged !== false) await checkTagged(pdf, body);
  else {
    const info = await pdfTool('pdfinfo', body.protect ? ['-opw', body.protect.owner_password] : [], pdf);
    assert.match(info.stdout, /^Tagged:\s+no$/m, 'untagged when the request says tagged: false');
  }
  if (body.outline === true) await checkOutline(pdf, body);
  if (pdfUa) await checkPdfUa(pdf, body);
  if (body.pdf_a) await checkPdfAConformance(pdf, body.pdf_a);
  await checkMetadata(pdf, body);
  await checkAttachments(pdf, body);
  if (body.protect) await checkProtect(pdf, body);
  else assert.equal((await pdfTool('pdftotext', [], pdf, ['-'])).code, 0, 'opens without a password');
  if (body.stamp) await checkStamp(pdf, body, 2);
}

describe('finishing options (tagged, outline, pdf_ua, pdf_metadata, pdf_a, attachments, protect, stamp)', () => {
  let server: TestServer;
  let keys: { live: string; test: string };
  serverWithTeam('growth', (both) => ({ server, team: keys } = both), { workers: 1 });

  const render = (body: Record<string, unknown>, key = keys.live) =>
    api(server.base, 'POST', '/v1/pdf', { key, body: { html: REPORT_HTML, ...body } });
  /** Renders the report with `body` and checks the PDF for every finishing option it asks for. */
  const renderAndCheck = async (body: FinishingBody) => {
    const r = await render({ ...body });
    assert.equal(r.status, 200, r.text);
    await checkAll(r.buffer, body);
  };

  it('makes a tagged PDF with H1/H2 structure elements and an outline of the headings', async () => {
    await renderAndCheck({ tagged: true, outline: true });
  });

  it('makes PDF/UA with the metadata in Info and XMP, the title shown, and the language', async () => {
    const body: FinishingBody = {
      pdf_ua: true,
      pdf_metadata: {
        title: 'Bericht – Q3 (Ünïcode)',
        author: 'Ada & Co',
        subject: 'Quarter',
        keywords: ['finance', 'q3'],
        language: 'de-CH',
        creator: 'Billing 4.2',
      },
    };
    await renderAndCheck(body);
  });

  it('makes each PDF/A level conformant by the project checker and qpdf', async () => {
    for (const level of ['2b', '2u', '3b', '3u'] as const) {
      await renderAndCheck({ pdf_a: level, outline: true });
    }
  });

  it('makes PDF/A level A (2a, 3a): tagged, Unicode, identified as conformance A; untagged or merged is refused', async () => {
    for (const level of ['2a', '3a'] as const) await renderAndCheck({ pdf_a: level });
    for (const [body, field] of [
      [{ pdf_a: '2a', tagged: false }, 'tagged'],
      [{ pdf_a: '3a', append: [{ pdf_base64: Buffer.from('%PDF-1.7').toString('base64') }] }, 'pdf_a'],
    ] as const) {
      const r = await render(body);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.error.details.field, field);
    }
  });

  it('embeds attachments with their relationship, also in PDF/A-3 with PDF/UA', async () => {
    const body: FinishingBody = {
      pdf_a: '3u',
      pdf_ua: true,
      attachments: [
        { filename: 'lines.csv', content_base64: CSV, mime_type: 'text/csv', relationship: 'Data' },
        {
          filename: 'order.xml',
          content_base64: XML,
          mime_type: 'application/xml',
          description: 'The order',
          relationship: 'Source',
        },
      ],
    };
    await renderAndCheck(body);
  });

  it('encrypts with AES-256 and the permissions; the passwords appear in no answer, record or header', async () => {
    const body: FinishingBody = {
      protect: {
        owner_password: 'owner pw "quoted" @file',
        user_password: 'ünïcode-user',
        permissions: {
          print: 'low',
          copy: false,
          modify: false,
          annotate: true,
          fill_forms: false,
          assemble: true,
        },
      },
    };
    const r = await render({ ...body, response: 'url' });
    assert.equal(r.status, 200, r.text);
    const id = (r.json as { id: string }).id;
    const stored = Buffer.from(await (await fetch((r.json as { url: string }).url)).arrayBuffer());
    assert.equal(
      (r.json as { bytes: number }).bytes,
      stored.length,
      "the document's bytes are the final file's",
    );
    await checkAll(stored, body);
    const doc = await api(server.base, 'GET', `/v1/pdf/${id}`, { key: keys.live });
    const list = await api(server.base, 'GET', '/v1/pdf', { key: keys.live });
    for (const answer of [r.text, doc.text, list.text, JSON.stringify([...r.headers])]) {
      assert.ok(!answer.includes('owner pw') && !answer.includes('ünïcode-user'), 'no password returned');
    }
  });

  it('stamps the chosen pages, on top of the test-mode watermark', async () => {
    for (const pages of ['first', 'rest', 'all'] as const) {
      const body: FinishingBody = { stamp: { text: 'COPY', pages, angle: 30, opacity: 0.5 } };
      const r = await render({ ...body }, keys.test);
      assert.equal(r.status, 200, r.text);
      await checkStamp(r.buffer, body, 2);
      const page2 = (await pdfTool('pdftotext', ['-f', '2', '-l', '2'], r.buffer, ['-'])).stdout;
      assert.match(page2.replace(/\s+/g, ''), /TEST/i, 'the test watermark is still drawn');
    }
  });

  it('describes the final file in x-pages and content-length', async () => {
    const r = await render({ pdf_a: '3b', stamp: { text: 'FINAL' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('x-pages'), String((await pdfInfo(r.buffer)).pages));
    assert.equal(Number(r.headers.get('content-length')), r.buffer.length);
  });

  it('makes the built-in e-invoice template tagged, PDF/UA-identified and PDF/A-3b', async () => {
    const fixture = EINVOICE_FIXTURES.find((f) => f.name === 'two-rates-allowances-prepaid');
    assert.ok(fixture);
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.live,
      body: { e_invoice: { standard: 'factur-x', profile: 'en16931', invoice: fixture.invoice } },
    });
    assert.equal(r.status, 200, r.text);
    await checkPdfAConformance(r.buffer, '3b');
    await checkTagged(r.buffer, {}, ['H1']);
    const xmp = (await pdfTool('pdfinfo', ['-meta'], r.buffer)).stdout;
    assert.match(xmp, /<pdfuaid:part>1<\/pdfuaid:part>/);
    assert.match(xmp, /fx:ConformanceLevel/);
    const refused = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.live,
      body: { e_invoice: { standard: 'factur-x', invoice: fixture.invoice }, pdf_a: '2b' },
    });
    assert.equal(refused.status, 400);
    assert.equal((refused.json as { error: { details: { field: string } } }).error.details.field, 'pdf_a');
  });

  it("applies a template's finishing settings under the request's, in POST /pdf and in batches", async () => {
    const settings = {
      pdf_a: '3b',
      outline: true,
      pdf_metadata: { author: 'Template Co', language: 'en' },
      stamp: { text: 'DRAFT', pages: 'first' },
    };
    const created = await api(server.base, 'POST', '/v1/templates', {
      key: keys.live,
      body: { name: 'Finished report', html: REPORT_HTML, settings },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json.settings, settings, 'the settings are kept as sent');
    const templateId = created.json.id as string;
    const fromTemplate = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.live,
      body: { template_id: templateId, pdf_a: '2u', pdf_metadata: { title: 'Request title' } },
    });
    assert.equal(fromTemplate.status, 200, fromTemplate.text);
    const merged: FinishingBody = {
      pdf_a: '2u',
      outline: true,
      pdf_metadata: { author: 'Template Co', language: 'en', title: 'Request title' },
      stamp: { text: 'DRAFT', pages: 'first' },
    };
    await checkAll(fromTemplate.buffer, merged);

    const batch = await api(server.base, 'POST', '/v1/batches', {
      key: keys.live,
      body: {
        template_id: templateId,
        items: [{}, {}],
        attachments: [{ filename: 'b.csv', content_base64: CSV, mime_type: 'text/csv' }],
      },
    });
    assert.equal(batch.status, 202, batch.text);
    const done = await waitForBatch(server.base, keys.live, batch.json.id);
    assert.equal(done.counts.succeeded, 2);
    const entries = await unzipAll(Buffer.from(await (await fetch(done.zip.url)).arrayBuffer()));
    for (const pdf of entries.values())
      await checkAll(pdf, {
        pdf_a: '3b',
        outline: true,
        pdf_metadata: { author: 'Template Co', language: 'en', title: 'Quarterly report' },
        stamp: { text: 'DRAFT', pages: 'first' },
        attachments: [{ filename: 'b.csv', content_base64: CSV, mime_type: 'text/csv' }],
      });
  });

  /** Every stored row that could hold a request or settings: none may contain a plain password. */
  async function storedRowsText(): Promise<string> {
    const { db } = server.built.services;
    const tables = ['jobs', 'template_versions', 'documents', 'batches', 'idempotency_keys'] as const;
    const rows = await Promise.all(tables.map((t) => db.selectFrom(t).selectAll().execute()));
    return JSON.stringify(rows);
  }

  const waitForDocument = (id: string) =>
    waitFor(
      `document ${id} to finish`,
      async () => {
        const r = await api(server.base, 'GET', `/v1/pdf/${id}`, { key: keys.live });
        return ['succeeded', 'failed'].includes(r.json?.status) ? r.json : null;
      },
      // A ceiling, not an expectation: one render, beside whatever else the machine runs.
      180_000,
      250,
    );

  it('protects a queued (async) document: its passwords travel sealed and are erased with the job', async () => {
    const body: FinishingBody = {
      protect: {
        owner_password: 'async-owner-pw',
        user_password: 'async-user-pw',
        permissions: { copy: false, print: 'low' },
      },
    };
    const queued = await render({ ...body, async: true });
    assert.equal(queued.status, 202, queued.text);
    const done = await waitForDocument(queued.json.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    const file = Buffer.from(await (await fetch(done.url)).arrayBuffer());
    await checkAll(file, body);
    const job = await server.built.services.db
      .selectFrom('jobs')
      .select(['payload_json', 'status'])
      .where('job_key', 'is', null)
      .where('kind', '=', 'render')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(job.status, 'succeeded');
    assert.equal(job.payload_json, '{}', 'the sealed passwords are erased once the document is final');
    const stored = await storedRowsText();
    assert.ok(
      !stored.includes('async-owner-pw') && !stored.includes('async-user-pw'),
      'no plain password stored',
    );
    assert.ok(!JSON.stringify(done).includes('async-'), 'no password returned');
  });

  it("protects a batch's items with the batch's protect, over the template's", async () => {
    const templateProtect = { owner_password: 'tpl-owner-pw', user_password: 'tpl-user-pw' };
    const created = await api(server.base, 'POST', '/v1/templates', {
      key: keys.live,
      body: { name: 'Locked batch', html: REPORT_HTML, settings: { protect: templateProtect } },
    });
    assert.equal(created.status, 201, created.text);
    const protect = { owner_password: 'batch-owner-pw', user_password: 'batch-user-pw' };
    const batch = await api(server.base, 'POST', '/v1/batches', {
      key: keys.live,
      body: { template_id: created.json.id, items: [{}, {}], protect },
    });
    assert.equal(batch.status, 202, batch.text);
    const done = await waitForBatch(server.base, keys.live, batch.json.id);
    assert.equal(done.counts.succeeded, 2, JSON.stringify(done));
    const entries = await unzipAll(Buffer.from(await (await fetch(done.zip.url)).arrayBuffer()));
    assert.equal(entries.size, 2);
    for (const pdf of entries.values()) {
      await checkAll(pdf, { protect });
      const withTemplates = await pdfTool('pdftotext', ['-upw', templateProtect.user_password], pdf);
      assert.notEqual(withTemplates.code, 0, "the batch's protect replaced the template's");
    }
    const stored = await storedRowsText();
    for (const pw of ['batch-owner-pw', 'batch-user-pw', 'tpl-owner-pw', 'tpl-user-pw'])
      assert.ok(!stored.includes(pw), `${pw} is not stored in the clear`);
  });

  it("protects a template's renders with its sealed passwords, which no answer returns", async () => {
    const protect = {
      owner_password: 'template-owner-pw',
      user_password: 'template-user-pw',
      permissions: { modify: false },
    };
    const created = await api(server.base, 'POST', '/v1/templates', {
      key: keys.live,
      body: { name: 'Locked', html: REPORT_HTML, settings: { format: 'A4', protect } },
    });
    assert.equal(created.status, 201, created.text);
    const shown = { permissions: { modify: false }, owner_password_set: true, user_password_set: true };
    assert.deepEqual(created.json.settings, { format: 'A4', protect: shown });
    const id = created.json.id as string;
    const rendered = await api(server.base, 'POST', '/v1/pdf', { key: keys.live, body: { template_id: id } });
    assert.equal(rendered.status, 200, rendered.text);
    await checkAll(rendered.buffer, { protect });
    // A request's protect replaces the template's.
    const own = { owner_password: 'request-owner-pw', user_password: 'request-user-pw' };
    const replaced = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.live,
      body: { template_id: id, protect: own },
    });
    assert.equal(replaced.status, 200, replaced.text);
    await checkAll(replaced.buffer, { protect: own });
    // The settings sent back as shown keep the passwords (a new version only for the new margin).
    const updated = await api(server.base, 'PUT', `/v1/templates/${id}`, {
      key: keys.live,
      body: { settings: { ...created.json.settings, margin: '15mm' } },
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.json.version, 2);
    const again = await api(server.base, 'POST', '/v1/pdf', { key: keys.live, body: { template_id: id } });
    assert.equal(again.status, 200, again.text);
    await checkAll(again.buffer, { protect });
    // The same passwords sent again change nothing (sealing is randomised, the version must not be).
    const resent = await api(server.base, 'PUT', `/v1/templates/${id}`, {
      key: keys.live,
      body: { settings: { format: 'A4', margin: '15mm', protect } },
    });
    assert.equal(resent.status, 200, resent.text);
    assert.equal(resent.json.version, 2, 'the same passwords make no new version');
    // The shown form cannot take the open password away: that needs the passwords.
    const dropped = await api(server.base, 'PUT', `/v1/templates/${id}`, {
      key: keys.live,
      body: { settings: { format: 'A4', margin: '15mm', protect: { ...shown, user_password_set: false } } },
    });
    assert.equal(dropped.status, 400, dropped.text);
    assert.equal(dropped.json.error.code, 'invalid_request');
    assert.match(dropped.json.error.message, /user_password_set/);
    // The shown form alone cannot make passwords up.
    const invented = await api(server.base, 'POST', '/v1/templates', {
      key: keys.live,
      body: { name: 'No passwords', html: REPORT_HTML, settings: { protect: shown } },
    });
    assert.equal(invented.status, 400, invented.text);
    assert.equal(invented.json.error.details.field, 'settings/protect/owner_password');
    assert.match(invented.json.error.message, /send "owner_password"/);
    const answers = await Promise.all([
      api(server.base, 'GET', `/v1/templates/${id}`, { key: keys.live }),
      api(server.base, 'GET', `/v1/templates/${id}?version=1`, { key: keys.live }),
      api(server.base, 'GET', `/v1/templates/${id}/versions`, { key: keys.live }),
      api(server.base, 'GET', '/v1/templates', { key: keys.live }),
    ]);
    const texts = [created.text, updated.text, ...answers.map((a) => a.text)].join('\n');
    assert.equal(answers[0]?.status, 200);
    assert.deepEqual(answers[0]?.json.settings.protect, shown);
    for (const secret of ['template-owner-pw', 'template-user-pw', 'sealed_passwords'])
      assert.ok(!texts.includes(secret), `${secret} is in no answer`);
    const versions = await server.built.services.db
      .selectFrom('template_versions')
      .select('settings_json')
      .where('template_id', '=', id)
      .execute();
    for (const v of versions) {
      assert.match(v.settings_json, /"sealed_passwords":"v1:/, 'stored sealed');
      assert.ok(
        !v.settings_json.includes('template-owner-pw') && !v.settings_json.includes('template-user-pw'),
      );
    }
    // Previews are looked at, not handed out: never encrypted.
    const preview = await api(server.base, 'POST', `/v1/templates/${id}/preview`, {
      key: keys.live,
      body: {},
    });
    assert.equal(preview.status, 200, preview.text);
    assert.equal((await pdfTool('pdftotext', [], preview.buffer, ['-'])).code, 0, 'opens without a password');
  });

  it('still refuses protect where it cannot go, in template settings, batches and async alike', async () => {
    const protect = { owner_password: 'never-used' };
    const badTemplate = await api(server.base, 'POST', '/v1/templates', {
      key: keys.live,
      body: { name: 'Bad', html: REPORT_HTML, settings: { pdf_a: '3b', protect } },
    });
    const plain = await api(server.base, 'POST', '/v1/templates', {
      key: keys.live,
      body: { name: 'Plain', html: REPORT_HTML },
    });
    const batch = await api(server.base, 'POST', '/v1/batches', {
      key: keys.live,
      body: { template_id: plain.json.id, items: [{}], protect, pdf_a: '2u' },
    });
    const batchMix = await api(server.base, 'POST', '/v1/batches', {
      key: keys.live,
      body: { template_id: plain.json.id, items: [{}], pdf_ua: true, tagged: false },
    });
    const queued = await render({ protect, sign: { certificate_id: plain.json.id }, async: true });
    const queuedMix = await render({
      pdf_a: '2b',
      attachments: [{ filename: 'a.csv', content_base64: CSV, mime_type: 'text/csv' }],
      async: true,
    });
    for (const [r, field] of [
      [badTemplate, 'protect'],
      [batch, 'protect'],
      [batchMix, 'tagged'],
      [queued, 'sign'],
      [queuedMix, 'attachments'],
    ] as const) {
      assert.equal(r.status, 400, r.text);
      const error = (r.json as { error: { code: string; details?: { field?: string } } }).error;
      assert.equal(error.code, 'invalid_request');
      assert.equal(error.details?.field, field, r.text);
    }
  });

  it('refuses combinations that cannot go together, before rendering, naming the field and the fix', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ pdf_a: '2b', protect: { owner_password: 'x' } }, 'protect', /PDF\/A forbids encryption/],
      [
        { pdf_a: '2u', attachments: [{ filename: 'a.csv', content_base64: CSV, mime_type: 'text/csv' }] },
        'attachments',
        /use "pdf_a": "3u"/,
      ],
      [{ pdf_ua: true, tagged: false }, 'tagged', /needs a tagged PDF/],
      [{ pdf_a: '3a', tagged: false }, 'tagged', /PDF\/A-3a needs a tagged PDF/],
      [{ outline: true, tagged: false }, 'outline', /built from the tags/],
      [{ pdf_ua: true, html: NO_LANG_HTML }, 'pdf_ua', /<html lang/],
      [
        { attachments: [{ filename: 'a.csv', content_base64: '%%%', mime_type: 'text/csv' }] },
        'attachments/0/content_base64',
        /not base64/,
      ],
      [
        {
          attachments: [
            { filename: 'a.csv', content_base64: CSV, mime_type: 'text/csv' },
            { filename: 'a.csv', content_base64: CSV, mime_type: 'text/csv' },
          ],
        },
        'attachments/1/filename',
        /Two attachments/,
      ],
    ];
    const before = await api(server.base, 'GET', '/v1/account/usage', { key: keys.live });
    for (const [body, field, message] of cases) {
      const r = await render(body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      const error = (r.json as { error: { code: string; message: string; details: { field: string } } })
        .error;
      assert.equal(error.code, 'invalid_request');
      assert.equal(error.details.field, field);
      assert.match(error.message, message);
    }
    const afterUsage = await api(server.base, 'GET', '/v1/account/usage', { key: keys.live });
    assert.deepEqual(afterUsage.json, before.json, 'nothing counted');
  });

  it('property: every accepted mix, sync or async, passes every applicable check; every refused one says why', async () => {
    const r = rng(26);
    let queuedProtected = 0;
    for (let i = 0; i < 14; i++) {
      // A third of the mixes are queued (async: true): protect's passwords then travel sealed to the worker.
      const queued = i % 3 === 2;
      const body: FinishingBody & { html?: string } = {};
      const maybe = () => r.next() < 0.45;
      if (maybe()) body.tagged = r.next() < 0.6;
      if (maybe()) body.outline = true;
      if (maybe()) body.pdf_ua = true;
      if (maybe()) body.pdf_a = r.pick(['2b', '2u', '3b', '3u'] as const);
      if (maybe())
        body.pdf_metadata = r.next() < 0.5 ? { title: `Doc ${i}`, author: 'Mix' } : { language: 'fr' };
      if (maybe())
        body.attachments = [
          { filename: `f${i}.csv`, content_base64: CSV, mime_type: 'text/csv', relationship: 'Supplement' },
        ];
      if (r.next() < (queued ? 0.7 : 0.3))
        body.protect = { owner_password: `o${i}`, user_password: r.next() < 0.5 ? `u${i}` : '' };
      if (maybe()) body.stamp = { text: `MIX${i}`, pages: r.pick(['all', 'first', 'rest'] as const) };
      if (r.next() < 0.25) body.html = NO_LANG_HTML;
      const reasons = new Set<string>();
      if (body.pdf_ua && body.tagged === false) reasons.add('tagged');
      if (body.outline && body.tagged === false) reasons.add('outline');
      if (body.protect && body.pdf_a) reasons.add('protect');
      if (body.attachments && body.pdf_a?.startsWith('2')) reasons.add('attachments');
      if (body.pdf_ua && body.html && !body.pdf_metadata?.language) reasons.add('pdf_ua');
      const res = await render({ ...body, ...(queued ? { async: true } : {}) });
      if (reasons.size > 0) {
        assert.equal(res.status, 400, `${JSON.stringify(body)} should be refused: ${res.text}`);
        const error = (res.json as { error: { code: string; message: string; details: { field: string } } })
          .error;
        assert.equal(error.code, 'invalid_request');
        assert.ok(reasons.has(error.details.field), `${error.details.field} is one of ${[...reasons]}`);
        assert.ok(error.message.length > 20, 'says why');
        continue;
      }
      if (!queued) {
        assert.equal(res.status, 200, `${JSON.stringify(body)}: ${res.text}`);
        await checkAll(res.buffer, body);
        continue;
      }
      assert.equal(res.status, 202, `${JSON.stringify(body)}: ${res.text}`);
      const done = await waitForDocument(res.json.id);
      assert.equal(done.status, 'succeeded', `${JSON.stringify(body)}: ${JSON.stringify(done)}`);
      await checkAll(Buffer.from(await (await fetch(done.url)).arrayBuffer()), body);
      if (body.protect) queuedProtected++;
    }
    assert.ok(queuedProtected >= 1, 'at least one queued mix was protected');
  });

  it('fuzz: finishing fields in template settings and batches are accepted or refused with invalid_request, never a 500', async () => {
    const r = rng(2627);
    // Its own team: the requests above used much of the shared key's 120 a minute.
    const own = await server.team('growth');
    // Template settings also take protect as answers show it (owner_password_set), sent back to keep the passwords.
    const inner = [...FINISHING_INNER_FIELDS, 'owner_password_set'];
    const plain = await api(server.base, 'POST', '/v1/templates', {
      key: own.live,
      body: { name: 'Fuzz', html: REPORT_HTML },
    });
    for (let i = 0; i < 30; i++) {
      const field = r.pick(FINISHING_FIELDS);
      const value = randomJson(r, 0, inner);
      const asTemplate = i % 2 === 0;
      const res = asTemplate
        ? await api(server.base, 'POST', '/v1/templates', {
            key: own.live,
            body: { name: `Fuzz ${i}`, html: REPORT_HTML, settings: { [field]: value } },
          })
        : await api(server.base, 'POST', '/v1/batches', {
            key: own.live,
            body: { template_id: plain.json.id, items: [{}], [field]: value },
          });
      assert.ok(
        [201, 202, 400].includes(res.status),
        `${asTemplate ? 'settings' : 'batch'} ${field}=${JSON.stringify(value)}: ${res.status} ${res.text}`,
      );
      if (res.status === 400)
        assert.equal((res.json as { error: { code: string } }).error.code, 'invalid_request');
    }
  });

  it('fuzz: malformed finishing fields are invalid_request whose message names the field, never a 500', async () => {
    const r = rng(2626);
    const own = await server.team('growth');
    for (let i = 0; i < 60; i++) {
      const field = r.pick(FINISHING_FIELDS);
      const value = randomJson(r, 0, FINISHING_INNER_FIELDS);
      const res = await render({ [field]: value }, own.live);
      assert.ok(
        [200, 400].includes(res.status),
        `${field}=${JSON.stringify(value)}: ${res.status} ${res.text}`,
      );
      if (res.status === 400) {
        const error = (res.json as { error: { code: string; message: string } }).error;
        assert.equal(error.code, 'invalid_request');
        assert.ok(error.message.includes(field), `${field}=${JSON.stringify(value)}: ${error.message}`);
      }
    }
  });
});
