import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pdfInfo, pdfText, pdfTool } from '../../helpers/pdf.js';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';

interface Starter {
  id: string;
  name: string;
  html: string;
  css: string;
  settings: Record<string, unknown>;
  sample_data: Record<string, unknown>;
  thumbnail_url: string;
}

/** What a reader sees in each starter made into a template and rendered from its sample data. */
const EXPECTED: Record<string, { pages: [number, number]; text: RegExp[]; size?: [number, number] }> = {
  invoice: {
    pages: [1, 1],
    text: [/INV-2026-0142/, /Total due\s+€15,148\.70/, /Page 1 of 1/],
    size: [595, 842],
  },
  receipt: { pages: [1, 1], text: [/Bluebird Coffee/, /Total\s+\$34\.76/, /2 × Flat white\s+\$9\.00/] },
  // The page footer comes from business.css, which the quote shares with the invoice.
  quote: {
    pages: [1, 2],
    text: [/Q-2026-031/, /Total \(excl\. tax\)\s+£25,200\.00/, /Signature/, /Page 1 of [12]/],
  },
  letter: { pages: [1, 1], text: [/Dear Mr Berg,/, /Camille Dubois/, /Enclosures: Preliminary estimate/] },
  certificate: {
    pages: [1, 1],
    text: [/Samuel Okafor/, /of completion/, /Dr\. Elena Petrova/],
    size: [842, 595],
  },
  report: {
    pages: [7, 9],
    text: [/Contents/, /Network Performance\s+Review 2026/, /3\.\s+Delivery performance\s+5/],
  },
};

/**
 * The template gallery: every starter becomes a template through the ordinary
 * POST /templates and renders in print mode without warnings, with the pages and text a reader expects,
 * in fonts Quire installs (embedded Noto); the gallery's thumbnails are real PNGs.
 */
describe('template starters', { timeout: 300_000 }, () => {
  let server: TestServer;
  let t: TestTeam;
  let starters: Starter[] = [];
  before(async () => {
    server = await startTestServer({ renderTimeoutMs: 20_000 });
    t = await server.team('growth');
    const r = await api(server.base, 'GET', '/v1/template-starters', { key: t.live });
    assert.equal(r.status, 200, r.text);
    starters = r.json.data;
  });
  after(async () => server.close());

  it('lists at least six starters: invoice, receipt, quote, letter, certificate and a report', () => {
    assert.ok(starters.length >= 6);
    assert.deepEqual(
      Object.keys(EXPECTED).filter((id) => !starters.some((s) => s.id === id)),
      [],
      'every expected starter is in the gallery',
    );
    for (const s of starters) {
      assert.equal(s.settings.mode, 'print', `${s.id} is a print-mode template`);
      assert.ok(Object.keys(s.sample_data).length > 0, `${s.id} has sample data`);
    }
  });

  for (const id of Object.keys(EXPECTED)) {
    it(`${id}: created through POST /templates, renders in print mode without warnings`, async () => {
      const starter = starters.find((s) => s.id === id);
      assert.ok(starter, id);
      const made = await api(server.base, 'POST', '/v1/templates', {
        key: t.live,
        body: {
          name: starter.name,
          html: starter.html,
          css: starter.css,
          sample_data: starter.sample_data,
          settings: starter.settings,
        },
      });
      assert.equal(made.status, 201, made.text);
      const pdf = await api(server.base, 'POST', '/v1/pdf', {
        key: t.live,
        body: { template_id: made.json.id, data: starter.sample_data, accessibility_report: true },
      });
      assert.equal(pdf.status, 200, pdf.text);
      assert.equal(pdf.headers.get('x-warnings'), '[]', `${id}: no warnings`);
      const document = await api(server.base, 'GET', `/v1/pdf/${pdf.headers.get('x-document-id')}`, {
        key: t.live,
      });
      // The starters ask for PDF/UA-1: every machine-checkable condition holds, decoration included (the
      // backgrounds and borders Chromium paints outside its tags are marked as artifacts).
      assert.equal(starter.settings.pdf_ua, true, `${id} asks for PDF/UA-1`);
      assert.equal(pdf.headers.get('x-accessibility'), 'tagged; ua1=pass', id);
      const failed = document.json.accessibility.checks
        .filter((c: { id: string; passed: boolean }) => !c.passed)
        .map((c: { id: string }) => c.id);
      assert.deepEqual(failed, [], `${id}: accessibility checks that fail`);
      const expected = EXPECTED[id];
      assert.ok(expected);
      const info = await pdfInfo(pdf.buffer);
      const [min, max] = expected.pages;
      assert.ok(info.pages >= min && info.pages <= max, `${id}: ${info.pages} pages, expected ${min}–${max}`);
      if (expected.size)
        assert.deepEqual([Math.round(info.width), Math.round(info.height)], expected.size, id);
      const text = await pdfText(pdf.buffer);
      for (const pattern of expected.text) assert.match(text, pattern, `${id}: ${pattern}`);
      const fonts = await pdfTool('pdffonts', [], pdf.buffer);
      assert.match(fonts.stdout, /Noto(Sans|Serif)/, `${id}: drawn in the installed Noto fonts`);
    });
  }

  it('report: the table of contents gives each chapter its page, and running headers name the chapter', async () => {
    const starter = starters.find((s) => s.id === 'report');
    assert.ok(starter);
    const pdf = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: starter.html, css: starter.css, data: starter.sample_data, mode: 'print', format: 'A4' },
    });
    assert.equal(pdf.status, 200, pdf.text);
    const contents = await pdfText(pdf.buffer, 2);
    const listed = [...contents.matchAll(/^\s*(\d)\.\s*(.+?)\s+(\d+)\s*$/gm)].map((m) => [
      m[2],
      Number(m[3]),
    ]);
    assert.equal(listed.length, 5, contents);
    for (const [title, page] of listed) {
      const onPage = await pdfText(pdf.buffer, page as number);
      // Its heading and the running header above it (string-set → @top-right) both name the chapter.
      assert.ok(onPage.split(String(title)).length - 1 >= 2, `"${title}" heads page ${page}: ${onPage}`);
    }
    assert.deepEqual(
      listed.map(([, page]) => page),
      [...listed.map(([, page]) => page)].sort((a, b) => (a as number) - (b as number)),
      'chapters in page order',
    );
  });

  it('serves each starter’s thumbnail as a 480 px PNG, made once', async () => {
    const starter = starters[0];
    assert.ok(starter);
    for (let i = 0; i < 2; i++) {
      const png = await api(server.base, 'GET', starter.thumbnail_url, { key: t.live });
      assert.equal(png.status, 200, png.text);
      assert.equal(png.headers.get('content-type'), 'image/png');
      assert.equal(png.buffer.subarray(1, 4).toString('latin1'), 'PNG');
      assert.equal(png.buffer.readUInt32BE(16), 480, 'width 480 px');
    }
    const missing = await api(server.base, 'GET', '/v1/template-starters/nope/thumbnail.png', {
      key: t.live,
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error.code, 'not_found');
    assert.match(missing.json.error.message, /GET \/v1\/template-starters/);
    const bad = await api(server.base, 'GET', '/v1/template-starters/..%2Fetc/thumbnail.png', {
      key: t.live,
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.code, 'invalid_request');
  });
});
