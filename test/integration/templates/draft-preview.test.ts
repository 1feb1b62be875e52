import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WATERMARK_TEXT } from '../../../src/render/index.js';
import { pdfInfo, pdfRawText, pdfText } from '../../helpers/pdf.js';
import { api, type TestServer } from '../../helpers/server.js';
import { assertError, assertLiquidErrorOnLine2, createTemplate, ok, templateSuite } from './helpers.js';

/** POST /v1/templates/<id>/draft-preview (extension): unsaved editor content through the preview route. */
describe('templates: draft preview', () => {
  let server: TestServer;
  let key: string;
  let testKey: string;
  const clock = templateSuite((suite) => ({ server, key, testKey } = suite));

  const draft = (id: string, body: unknown, k = key) =>
    api(server.base, 'POST', `/v1/templates/${id}/draft-preview`, { key: k, body });

  it('renders unsaved HTML, CSS, settings and data, watermarked; stores, counts and changes nothing', async () => {
    const t = await createTemplate(server.base, key, {
      name: 'Draft me',
      html: '<p>Saved {{ who }}</p>',
      sample_data: { who: 'Sample' },
      settings: { format: 'A4' },
    });
    const docsBefore = await ok(server.base, 'GET', '/v1/documents?limit=100', key);
    const usageBefore = (await ok(server.base, 'GET', '/v1/account', key)).usage;

    const res = await draft(t.id, {
      html: '<p class="x">Unsaved {{ who }}</p>',
      css: '.x::after { content: " styled-by-draft-css"; }',
      settings: { format: 'A5' },
      data: { who: 'Edited Person' },
    });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('content-disposition'), 'inline; filename="Draft-me.pdf"');
    assert.equal(res.headers.get('x-pages'), '1');
    assert.equal(res.headers.get('content-security-policy'), 'sandbox', 'shown inline by the dashboard');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('x-document-id'), null);
    const text = await pdfText(res.buffer);
    assert.match(text, /Unsaved Edited Person styled-by-draft-css/);
    assert.doesNotMatch(text, /Saved/);
    const squeezed = (await pdfRawText(res.buffer)).replace(/\s+/g, '');
    assert.ok(
      squeezed.includes(WATERMARK_TEXT.replace(/\s+/g, '')),
      `draft previews are watermarked: ${squeezed}`,
    );
    const a5 = await pdfInfo(res.buffer);
    assert.ok(Math.abs(a5.width - 420) <= 2 && Math.abs(a5.height - 595) <= 2, JSON.stringify(a5));

    // Omitted css/settings/data come from the current version; test keys may draft-preview too.
    const minimal = await draft(t.id, { html: '<p>Only html {{ who }}</p>' }, testKey);
    assert.equal(minimal.status, 200, minimal.text.slice(0, 300));
    assert.match(await pdfText(minimal.buffer), /Only html Sample/);
    const a4 = await pdfInfo(minimal.buffer);
    assert.ok(Math.abs(a4.width - 595) <= 2, JSON.stringify(a4));

    assert.deepEqual(await ok(server.base, 'GET', '/v1/documents?limit=100', key), docsBefore);
    assert.equal((await ok(server.base, 'GET', '/v1/documents?limit=100', testKey)).data.length, 0);
    assert.deepEqual((await ok(server.base, 'GET', '/v1/account', key)).usage, usageBefore);
    const saved = await ok(server.base, 'GET', `/v1/templates/${t.id}`, key);
    assert.equal(saved.version, 1);
    assert.equal(saved.html, '<p>Saved {{ who }}</p>');
  });

  it('Liquid errors are 422 template_render_error with line and column; bad bodies 400; limits as on save', async () => {
    const t = await createTemplate(server.base, key, { name: 'Errors', html: '<p>ok</p>' });
    const broken = assertLiquidErrorOnLine2(
      await draft(t.id, { html: '<p>one</p>\n<p>{% if x %}unclosed</p>' }),
    );
    assert.equal(typeof broken.json.error.details.column, 'number', broken.text);
    for (const body of [
      {},
      { html: '' },
      { html: '<p>x</p>', version: 1 },
      { html: '<p>x</p>', sample_data: {} },
      { html: '<p>x</p>', settings: { format: 'A9' } },
      { html: '<p>x</p>', settings: { margin: '1in', extra: 1 } },
      { html: '<p>x</p>', data: [] },
      { html: 1 },
    ]) {
      assertError(await draft(t.id, body), 400, 'invalid_request');
    }
    assertError(
      await draft(t.id, { html: '<p>x</p>', settings: { margin: '20cm' } }),
      400,
      'invalid_request',
    );
    assertError(
      await draft(t.id, { html: `<p>${'x'.repeat(500 * 1024)}</p>` }),
      422,
      'template_render_error',
    );
  });

  it("another team's, a deleted or an unknown template is 404 template_not_found", async () => {
    const other = await server.team('scale');
    const theirs = await createTemplate(server.base, other.live, { name: 'Theirs', html: '<p>x</p>' });
    assertError(await draft(theirs.id, { html: '<p>y</p>' }), 404, 'template_not_found');
    const mine = await createTemplate(server.base, key, { name: 'Gone', html: '<p>x</p>' });
    await ok(server.base, 'DELETE', `/v1/templates/${mine.id}`, key, undefined, 204);
    assertError(await draft(mine.id, { html: '<p>y</p>' }), 404, 'template_not_found');
  });

  it('shares the previews’ 30 per minute per team and key mode', async () => {
    const team = await server.team('scale');
    const t = await createTemplate(server.base, team.live, { name: 'Rate', html: '<p>x</p>' });
    const preview = `/v1/templates/${t.id}/preview`;
    for (let i = 0; i < 15; i++) {
      // Bad bodies still spend the budget only once they pass validation: use unknown templates for speed.
      assertError(
        await api(server.base, 'POST', `/v1/templates/00000000-0000-4000-8000-00000000000${i % 10}/preview`, {
          key: team.live,
          body: {},
        }),
        404,
        'template_not_found',
      );
      assertError(
        await draft('00000000-0000-4000-8000-000000000000', { html: '<p>x</p>' }, team.live),
        404,
        'template_not_found',
      );
    }
    const refused = assertError(await draft(t.id, { html: '<p>x</p>' }, team.live), 429, 'rate_limited');
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
    assertError(await api(server.base, 'POST', preview, { key: team.live, body: {} }), 429, 'rate_limited');
    // Test keys have their own budget.
    assert.equal((await draft(t.id, { html: '<p>x</p>' }, team.test)).status, 200);
    clock.advance(61_000);
    assert.equal((await draft(t.id, { html: '<p>x</p>' }, team.live)).status, 200);
  });
});
