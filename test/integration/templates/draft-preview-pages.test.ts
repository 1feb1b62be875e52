import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderPageImages } from '../../../src/render/index.js';
import { type Rng, randomJson } from '../../helpers/random.js';
import { api, type TestServer } from '../../helpers/server.js';
import {
  assertError,
  assertLiquidErrorOnLine2,
  createTemplate,
  draftBodiesProperty,
  ok,
  type PageJson,
  pngSize,
  templateSuite,
  UNKNOWN_ID,
} from './helpers.js';

const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 29);
const RUNS = Number(process.env.QUIRE_DRAFT_PAGES_PROPERTY_RUNS ?? 30);

const BREAK = '<div style="break-after: page"></div>';
const pagesOf = (n: number, word = 'Page') =>
  Array.from({ length: n }, (_, i) => `<h1>${word} ${i + 1}</h1>`).join(BREAK);

/** POST /v1/templates/<id>/draft-preview/pages (extension): the editor's live preview as page images. */
describe('templates: draft preview as page images', () => {
  let server: TestServer;
  let key: string;
  let testKey: string;
  templateSuite((suite) => ({ server, key, testKey } = suite));

  const pages = (id: string, body: unknown, k = key) =>
    api(server.base, 'POST', `/v1/templates/${id}/draft-preview/pages`, { key: k, body });

  it('answers the draft preview’s pages as PNGs: the same pixels as the watermarked draft-preview PDF', async () => {
    const t = await createTemplate(server.base, key, {
      name: 'Pages',
      html: '<p>Saved</p>',
      sample_data: { who: 'Sample' },
    });
    const docsBefore = await ok(server.base, 'GET', '/v1/documents?limit=100', key);
    const usageBefore = (await ok(server.base, 'GET', '/v1/account', key)).usage;
    const body = { html: `${pagesOf(2)}<p>{{ who }}</p>`, data: { who: 'Edited' } };

    const res = await pages(t.id, body);
    assert.equal(res.status, 200, res.text.slice(0, 300));
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.json.page_count, 2);
    assert.equal(res.json.truncated, false);
    const images: PageJson[] = res.json.pages;
    assert.deepEqual(
      images.map((p) => p.page),
      [1, 2],
    );
    for (const p of images) {
      const png = Buffer.from(p.png_base64, 'base64');
      assert.deepEqual(pngSize(png), { width: 1000, height: p.height }, 'default width 1000 px');
      assert.equal(p.width, 1000);
      assert.ok(Math.abs(p.height - Math.round((1000 * 297) / 210)) <= 2, `A4: ${p.height}`);
    }
    assert.notEqual(images[0]!.png_base64, images[1]!.png_base64);

    // The images are the preview PDF's pages (watermark included), not some other rendering of the draft.
    const pdf = await api(server.base, 'POST', `/v1/templates/${t.id}/draft-preview`, { key, body });
    assert.equal(pdf.status, 200);
    const expected = await renderPageImages(pdf.buffer, { first: 1, last: 10, width: 1000 });
    assert.deepEqual(
      images.map((p) => p.png_base64),
      expected.pages.map((p) => p.png.toString('base64')),
    );

    // Previews stay uncounted and unstored.
    assert.deepEqual(await ok(server.base, 'GET', '/v1/documents?limit=100', key), docsBefore);
    assert.deepEqual((await ok(server.base, 'GET', '/v1/account', key)).usage, usageBefore);
  });

  it('caps at 10 pages (truncated, with the whole page count) and honours image_width; test keys may use it', async () => {
    const t = await createTemplate(server.base, key, { name: 'Long', html: '<p>x</p>' });
    const res = await pages(t.id, { html: pagesOf(12), image_width: 200 }, testKey);
    assert.equal(res.status, 200, res.text.slice(0, 300));
    assert.equal(res.json.page_count, 12);
    assert.equal(res.json.truncated, true);
    assert.equal(res.json.pages.length, 10);
    assert.deepEqual(
      res.json.pages.map((p: PageJson) => p.page),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    for (const p of res.json.pages as PageJson[]) {
      assert.equal(pngSize(Buffer.from(p.png_base64, 'base64')).width, 200);
    }
  });

  it('answers the preview’s accessibility report when asked (extension): a figure without alt, a skipped heading', async () => {
    const t = await createTemplate(server.base, key, { name: 'Report', html: '<p>Saved</p>' });
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
    const flawed = `<h1>Title</h1><h3>Skipped</h3><img src="data:image/png;base64,${png}" width="20" height="20">`;
    const res = await pages(t.id, { html: flawed, accessibility_report: true });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    const failed = res.json.accessibility.checks
      .filter((c: { passed: boolean }) => !c.passed)
      .map((c: { id: string; count: number }) => `${c.id}:${c.count}`);
    assert.ok(failed.includes('figure_alt:1'), failed.join(', '));
    assert.ok(failed.includes('heading_levels:1'), failed.join(', '));
    assert.equal(res.json.accessibility.ua1, 'fail');
    const plain = await pages(t.id, { html: flawed });
    assert.equal(plain.json.accessibility, undefined, 'only when asked');
  });

  it('answers the draft-preview errors: Liquid 422 with line, bad fields 400, unknown template 404', async () => {
    const t = await createTemplate(server.base, key, { name: 'Errs', html: '<p>x</p>' });
    assertLiquidErrorOnLine2(await pages(t.id, { html: '<p>a</p>\n{% if x %}open' }));
    for (const image_width of [99, 1001, 500.5, '800']) {
      const res = assertError(await pages(t.id, { html: '<p>x</p>', image_width }), 400, 'invalid_request');
      assert.match(res.json.error.message, /image_width/);
    }
    assertError(await pages(t.id, { html: '<p>x</p>', version: 1 }), 400, 'invalid_request');
    assertError(await pages(t.id, {}), 400, 'invalid_request');
    assertError(await pages(UNKNOWN_ID, { html: '<p>x</p>' }), 404, 'template_not_found');
  });
});

function randomBody(r: Rng): unknown {
  if (r.next() < 0.1) return randomJson(r, 0, ['html', 'css', 'settings', 'data', 'image_width']);
  const body: Record<string, unknown> = {
    html:
      r.next() < 0.85
        ? r.pick(['<p>{{ who }}</p>', pagesOf(3), '<p>{% if %}</p>', '<p>{{ who | nope }}</p>', ''])
        : randomJson(r, 2),
  };
  if (r.next() < 0.5) {
    body.image_width =
      r.next() < 0.6 ? r.pick([100, 321, 1000]) : r.pick([0, -5, 99, 1001, 2.5, 1e9, '500', null, true]);
  }
  if (r.next() < 0.3) body.settings = r.pick([{ format: 'A5' }, { margin: '40cm' }, { format: 'B9' }, []]);
  if (r.next() < 0.4) body.data = r.next() < 0.7 ? { who: randomJson(r, 2) } : randomJson(r, 2);
  if (r.next() < 0.05) body.png_base64 = randomJson(r, 1);
  return body;
}

/** Property: any body gets page images or the spec's error object (400 or 422), never a 5xx or a hang. */
describe('property: POST /v1/templates/<id>/draft-preview/pages bodies', () => {
  draftBodiesProperty('draft-preview/pages', randomBody, { seed: SEED, runs: RUNS });
});
