import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomJson, rng } from '../../helpers/random.js';
import { api, type TestServer } from '../../helpers/server.js';
import { assertError, createTemplate, INVOICE, ok, templateSuite } from './helpers.js';

const KB = 1024;

/** Field rules, parse-on-save errors, the fields operation, and a fuzz of create/update bodies. */
describe('templates: validation and fields', () => {
  let server: TestServer;
  let key: string;
  const clock = templateSuite((suite) => ({ server, key } = suite), { warmRenderer: false });

  const post = (body: unknown) => api(server.base, 'POST', '/v1/templates', { key, body });

  it('parses on save: syntax errors and unknown filters are template_render_error with line and column', async () => {
    const syntax = assertError(
      await post({ name: 'bad', html: '<p>ok</p>\n<p>{% if x %}never closed</p>' }),
      422,
      'template_render_error',
    );
    assert.equal(syntax.json.error.details.line, 2);
    assert.equal(typeof syntax.json.error.details.column, 'number');
    const filter = assertError(
      await post({ name: 'bad', html: '<p>\n  {{ x | no_such_filter }}</p>' }),
      422,
      'template_render_error',
    );
    assert.deepEqual(Object.keys(filter.json.error.details).sort(), ['column', 'line']);
    assert.equal(filter.json.error.details.line, 2);
    const t = await createTemplate(server.base, key);
    assertError(
      await api(server.base, 'PUT', `/v1/templates/${t.id}`, { key, body: { html: '{{ x | nope }}' } }),
      422,
      'template_render_error',
    );
    const unchanged = await ok(server.base, 'GET', `/v1/templates/${t.id}`, key);
    assert.equal(unchanged.current_version, 1);
    assert.equal(unchanged.html, INVOICE.html);
  });

  it('enforces sizes: html 500 KB (template_render_error), css 500 KB, sample_data 1 MB', async () => {
    const html = 'x'.repeat(500 * KB);
    await createTemplate(server.base, key, { name: 'max', html, css: 'y'.repeat(500 * KB) });
    assertError(await post({ name: 'big', html: `${html}x` }), 422, 'template_render_error');
    assertError(
      await post({ name: 'big', html: 'x', css: 'y'.repeat(500 * KB + 1) }),
      400,
      'invalid_request',
    );
    const sample = { s: 'z'.repeat(KB * KB) };
    assertError(await post({ name: 'big', html: 'x', sample_data: sample }), 400, 'invalid_request');
    const fits = { s: 'z'.repeat(KB * KB - 10) };
    await createTemplate(server.base, key, { name: 'fits', html: 'x', sample_data: fits });
  });

  it('refuses bad names, unknown fields, empty updates and unusable settings with invalid_request', async () => {
    const bodies: unknown[] = [
      { html: 'x' },
      { name: '', html: 'x' },
      { name: 'n'.repeat(101), html: 'x' },
      { name: 'n', html: '' },
      { name: 'n', html: 'x', unknown: 1 },
      { name: 'n', html: 'x', css: null },
      { name: 'n', html: 'x', sample_data: [] },
      { name: 'n', html: 'x', settings: { margins: '1in' } },
      { name: 'n', html: 'x', settings: { mode: 'slow' } },
      { name: 'n', html: 'x', settings: { margin: '5' } },
      { name: 'n', html: 'x', settings: { margin: '150mm' } },
      { name: 'n', html: 'x', settings: { format: { width: '100mm' } } },
      { name: 'n', html: 'x', settings: { format: { width: '100mm', height: '1m' } } },
      {
        name: 'n',
        html: 'x',
        settings: { format: { width: '100mm', height: '100mm' }, orientation: 'sideways' },
      },
    ];
    for (const body of bodies) assertError(await post(body), 400, 'invalid_request');
    const t = await createTemplate(server.base, key);
    for (const body of [{}, { name: null }, { sample_data: null }, { settings: null }, { version: 2 }]) {
      assertError(
        await api(server.base, 'PUT', `/v1/templates/${t.id}`, { key, body }),
        400,
        'invalid_request',
      );
    }
    const custom = await createTemplate(server.base, key, {
      name: 'custom',
      html: 'x',
      settings: { format: { width: '4in', height: '6in' }, margin: '0' },
    });
    assert.deepEqual(custom.settings, { format: { width: '4in', height: '6in' }, margin: '0' });
  });

  it('lists form fields of a nested sample: paths, list, line_items, exact keys, 6 levels', async () => {
    const t = await createTemplate(server.base, key, {
      name: 'fields',
      html: 'x',
      sample_data: {
        customer: { name: 'Ada', address: { city: 'Paris' } },
        tags: ['a', 'b'],
        items: [{ description: 'Widget', qty: 2 }],
        'a.b': 'dotted',
        l1: { l2: { l3: { l4: { l5: { l6: 'six', deeper: { l7: 'seven' } } } } } },
      },
    });
    const f = await ok(server.base, 'GET', `/v1/templates/${t.id}/fields`, key);
    const byPath = new Map(f.fields.map((x: { path: string }) => [x.path, x]));
    assert.deepEqual(
      [...byPath.keys()],
      ['customer.name', 'customer.address.city', 'tags', 'items', '["a.b"]', 'l1.l2.l3.l4.l5.l6'],
    );
    assert.equal((byPath.get('tags') as { type: string }).type, 'list');
    const items = byPath.get('items') as { type: string; fields: Array<{ path: string; type: string }> };
    assert.equal(items.type, 'line_items');
    assert.deepEqual(
      items.fields.map((x) => [x.path, x.type]),
      [
        ['items[].description', 'text'],
        ['items[].qty', 'number'],
      ],
    );
    assert.equal((byPath.get('["a.b"]') as { key: string }).key, 'a.b');
    assert.equal(f.truncated, true, 'the 7th level is left out');
    assert.ok(!JSON.stringify(f).includes('seven'));
    assert.deepEqual(
      f.tree.map((n: { key: string }) => n.key),
      ['customer', 'tags', 'items', 'a.b', 'l1'],
    );
    assert.deepEqual(
      f.tree[0].children.map((n: { key: string; type: string }) => [n.key, n.type]),
      [
        ['name', 'text'],
        ['address', 'object'],
      ],
    );
    // Fields follow the version: an old version keeps its own sample data.
    await ok(server.base, 'PUT', `/v1/templates/${t.id}`, key, { sample_data: { only: 1 } });
    const v2 = await ok(server.base, 'GET', `/v1/templates/${t.id}/fields`, key);
    assert.deepEqual(
      v2.fields.map((x: { path: string }) => x.path),
      ['only'],
    );
    const v1 = await ok(server.base, 'GET', `/v1/templates/${t.id}/fields?version=1`, key);
    assert.equal(v1.fields.length, 6);
    const none = await createTemplate(server.base, key, { name: 'no sample', html: 'x' });
    assert.deepEqual(await ok(server.base, 'GET', `/v1/templates/${none.id}/fields`, key), {
      fields: [],
      tree: [],
      truncated: false,
    });
  });

  it('fuzz: random create and update bodies never cause a 5xx', async () => {
    const r = rng(20261124);
    const t = await createTemplate(server.base, key);
    const keys = [
      'name',
      'html',
      'css',
      'sample_data',
      'settings',
      'mode',
      'format',
      'margin',
      'orientation',
    ];
    for (let i = 0; i < 120; i++) {
      if (i % 50 === 0) clock.advance(61_000);
      const body = randomJson(r, 0, keys);
      const path = i % 2 === 0 ? '/v1/templates' : `/v1/templates/${t.id}`;
      const res = await api(server.base, i % 2 === 0 ? 'POST' : 'PUT', path, { key, body });
      const label = `${path} ${JSON.stringify(body).slice(0, 200)} → ${res.status} ${res.text.slice(0, 200)}`;
      assert.ok(res.status < 500, label);
      if (res.status >= 400) assert.equal(typeof res.json?.error?.code, 'string', label);
    }
  });
});
