import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WATERMARK_TEXT } from '../../../src/render/index.js';
import { pdfInfo, pdfRawText, pdfText } from '../../helpers/pdf.js';
import { api, forgeSignature, type TestServer } from '../../helpers/server.js';
import { assertError, createTemplate, ok, pngSize, templateSuite } from './helpers.js';

/** Chromium's paper sizes differ from the nominal points by under a point. */
function assertSize(size: { width: number; height: number }, width: number, height: number, label: string) {
  assert.ok(
    Math.abs(size.width - width) <= 2 && Math.abs(size.height - height) <= 2,
    `${label}: ${JSON.stringify(size)}`,
  );
}

/** Templates through the real renderer: POST /pdf by template_id, previews, thumbnails (real Chromium). */
describe('templates: rendering', () => {
  let server: TestServer;
  let key: string;
  let testKey: string;
  const clock = templateSuite((suite) => ({ server, key, testKey } = suite));

  async function render(body: Record<string, unknown>) {
    const res = await api(server.base, 'POST', '/v1/pdf', { key, body });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    const doc = await ok(server.base, 'GET', `/v1/pdf/${res.headers.get('x-document-id')}`, key);
    return { res, doc, text: await pdfText(res.buffer) };
  }

  it('renders the pinned version, else the current one; template_version wins; filename is the name', async () => {
    const t = await createTemplate(server.base, key, {
      name: 'Quarterly report',
      html: '<p>Version one for {{ who }}</p>',
      sample_data: { who: 'Sample Person' },
    });
    await ok(server.base, 'PUT', `/v1/templates/${t.id}`, key, { html: '<p>Version two for {{ who }}</p>' });
    const current = await render({ template_id: t.id });
    assert.equal(current.doc.template_id, t.id);
    assert.equal(current.doc.template_version, 2);
    assert.equal(current.doc.mode, 'print', 'templates default to print mode');
    assert.match(current.text, /Version two for Sample Person/);
    assert.equal(
      current.res.headers.get('content-disposition'),
      'attachment; filename="Quarterly-report.pdf"',
    );

    await ok(server.base, 'POST', `/v1/templates/${t.id}/pin`, key, { version: 1 });
    const pinned = await render({ template_id: t.id, data: { who: 'Ada' } });
    assert.equal(pinned.doc.template_version, 1);
    assert.match(pinned.text, /Version one for Ada/);
    const explicit = await render({ template_id: t.id, template_version: 2 });
    assert.equal(explicit.doc.template_version, 2);
    assert.match(explicit.text, /Version two/);

    await ok(server.base, 'POST', `/v1/templates/${t.id}/pin`, key, { version: null });
    const unpinned = await render({ template_id: t.id });
    assert.equal(unpinned.doc.template_version, 2);
    assert.match(unpinned.text, /Version two/);
    assertError(
      await api(server.base, 'POST', '/v1/pdf', { key, body: { template_id: t.id, template_version: 3 } }),
      404,
      'template_not_found',
    );
  });

  it('applies template settings as page defaults; request options override them', async () => {
    const t = await createTemplate(server.base, key, {
      name: 'Landscape',
      html: '<p>wide</p>',
      settings: { mode: 'fast', format: 'A5', orientation: 'landscape', margin: '10mm' },
    });
    const own = await render({ template_id: t.id });
    assert.equal(own.doc.mode, 'fast');
    assertSize(await pdfInfo(own.res.buffer), 595, 420, 'A5 landscape');
    const overridden = await render({ template_id: t.id, format: 'A4', orientation: 'portrait' });
    assertSize(await pdfInfo(overridden.res.buffer), 595, 842, 'A4 portrait');
    const printed = await render({ template_id: t.id, mode: 'print' });
    assert.equal(printed.doc.mode, 'print');
  });

  it('merges merge_data over data: empty values dropped, deep merge, dotted keys taken literally', async () => {
    const t = await createTemplate(server.base, key, {
      name: 'Merge',
      html: '<p>[{{ customer.name }}|{{ customer.city }}|{{ a.b }}|{{ ["a.b"] }}|{{ note }}]</p>',
      sample_data: { customer: { name: 'Sample', city: 'Paris' }, a: { b: 'nested' }, note: 'kept' },
    });
    const merged = await render({
      template_id: t.id,
      merge_data: { customer: { name: 'Real Name', city: '' }, 'a.b': 'literal', note: null, extra: [] },
    });
    assert.match(merged.text, /\[Real Name\|Paris\|nested\|literal\|kept\]/);
    const withData = await render({
      template_id: t.id,
      data: { customer: { name: 'Given' }, a: { b: 'x' } },
      merge_data: { customer: { city: 'Oslo' }, empty: {} },
    });
    assert.match(withData.text, /\[Given\|Oslo\|x\|\|\]/);
  });

  it('previews: watermarked inline PDF with no-store and x-pages, never a document; page options refused', async () => {
    const t = await createTemplate(server.base, key, {
      name: 'Preview me',
      html: '<p>Hello {{ who }}</p>',
      sample_data: { who: 'Sample' },
    });
    const before = (await ok(server.base, 'GET', '/v1/documents?limit=100', key)).data.length;
    const res = await api(server.base, 'POST', `/v1/templates/${t.id}/preview`, { key, body: {} });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    assert.equal(res.headers.get('content-disposition'), 'inline; filename="Preview-me.pdf"');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-pages'), '1');
    assert.equal(res.headers.get('x-document-id'), null);
    const text = await pdfText(res.buffer);
    assert.match(text, /Hello Sample/);
    // The rotated watermark may come out letter by letter: compare without whitespace.
    const squeezed = (await pdfRawText(res.buffer)).replace(/\s+/g, '');
    assert.ok(squeezed.includes(WATERMARK_TEXT.replace(/\s+/g, '')), `previews are watermarked: ${squeezed}`);
    const withData = await api(server.base, 'POST', `/v1/templates/${t.id}/preview`, {
      key: testKey,
      body: { data: { who: 'Test Key' }, version: 1 },
    });
    assert.equal(withData.status, 200);
    assert.match(await pdfText(withData.buffer), /Hello Test Key/);
    for (const body of [{ format: 'A4' }, { mode: 'fast' }, { margins: '1in' }, { version: 0 }]) {
      assertError(
        await api(server.base, 'POST', `/v1/templates/${t.id}/preview`, { key, body }),
        400,
        'invalid_request',
      );
    }
    assertError(
      await api(server.base, 'POST', `/v1/templates/${t.id}/preview`, { key, body: { version: 2 } }),
      404,
      'template_not_found',
    );
    const afterLive = (await ok(server.base, 'GET', '/v1/documents?limit=100', key)).data.length;
    const afterTest = (await ok(server.base, 'GET', '/v1/documents?limit=100', testKey)).data.length;
    assert.equal(afterLive, before);
    assert.equal(afterTest, 0);
  });

  it('serves a 480 px PNG thumbnail per version, cached; bad signature 403; expired 410', async () => {
    const t = await createTemplate(server.base, key, {
      name: 'Thumb',
      html: '<h1 style="font-size:80px">{{ title }}</h1>',
      sample_data: { title: 'Big title' },
    });
    const url = new URL(t.thumbnail_url);
    const path = `${url.pathname}${url.search}`;
    const first = await api(server.base, 'GET', path);
    assert.equal(first.status, 200, first.text.slice(0, 300));
    assert.equal(first.headers.get('content-type'), 'image/png');
    const size = pngSize(first.buffer);
    assert.equal(size.width, 480);
    assert.ok(size.height > 600, `A4 portrait is taller than wide (${size.height})`);
    const blobs = server.built.services.blobs;
    assert.ok(await blobs.exists(`thumbnails/templates/${t.id}/1.png`), 'cached in the blob store');
    const second = await api(server.base, 'GET', path);
    assert.deepEqual(second.buffer, first.buffer);

    assertError(await api(server.base, 'GET', forgeSignature(path)), 403, 'forbidden');
    assertError(await api(server.base, 'GET', path.replace('v=1', 'v=2')), 403, 'forbidden');
    assertError(await api(server.base, 'GET', url.pathname), 403, 'forbidden');
    clock.advance(25 * 60 * 60 * 1000);
    assertError(await api(server.base, 'GET', path), 410, 'file_expired');
    const fresh = new URL((await ok(server.base, 'GET', `/v1/templates/${t.id}`, key)).thumbnail_url);
    assert.equal((await api(server.base, 'GET', `${fresh.pathname}${fresh.search}`)).status, 200);
    await ok(server.base, 'DELETE', `/v1/templates/${t.id}`, key, undefined, 204);
    assertError(await api(server.base, 'GET', `${fresh.pathname}${fresh.search}`), 410, 'file_expired');
  });

  it('a deleted template cannot be rendered', async () => {
    const t = await createTemplate(server.base, key, { name: 'Gone', html: '<p>x</p>' });
    await ok(server.base, 'DELETE', `/v1/templates/${t.id}`, key, undefined, 204);
    assertError(
      await api(server.base, 'POST', '/v1/pdf', { key, body: { template_id: t.id } }),
      404,
      'template_not_found',
    );
  });
});
