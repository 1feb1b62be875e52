import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, type TestServer } from '../../helpers/server.js';
import { assertError, createTemplate, INVOICE, ok, templateSuite, UNKNOWN_ID } from './helpers.js';

/** Spec "Template versions": every row of the table, the GET/versions views and retention. */
describe('templates: versions', () => {
  let server: TestServer;
  let key: string;
  const clock = templateSuite((suite) => ({ server, key } = suite), { warmRenderer: false });

  const path = (id: string, suffix = '') => `/v1/templates/${id}${suffix}`;

  it('POST makes version 1, current_version 1, with a signed thumbnail link and no-store', async () => {
    const res = await api(server.base, 'POST', '/v1/templates', { key, body: INVOICE });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const t = res.json;
    assert.equal(t.version, 1);
    assert.equal(t.current_version, 1);
    assert.equal(t.pinned_version, null);
    assert.equal(t.name, INVOICE.name);
    assert.equal(t.html, INVOICE.html);
    assert.equal(t.css, INVOICE.css);
    assert.deepEqual(t.sample_data, INVOICE.sample_data);
    assert.deepEqual(t.settings, INVOICE.settings);
    assert.equal(t.updated_at, clock.now().toISOString());
    assert.match(
      t.thumbnail_url,
      new RegExp(`/v1/thumbnails/templates/${t.id}\\.png\\?v=1&exp=\\d+&sig=[0-9a-f]{64}$`),
    );
    const minimal = await createTemplate(server.base, key, { name: 'x', html: 'x' });
    assert.equal(minimal.css, null);
    assert.equal(minimal.sample_data, null);
    assert.deepEqual(minimal.settings, {});
  });

  it('PUT changing html makes the next version with the other fields copied from the current one', async () => {
    const t = await createTemplate(server.base, key);
    const v2 = await ok(server.base, 'PUT', path(t.id), key, { html: '<h2>{{ number }}</h2>' });
    assert.equal(v2.version, 2);
    assert.equal(v2.current_version, 2);
    assert.equal(v2.html, '<h2>{{ number }}</h2>');
    assert.equal(v2.css, INVOICE.css);
    assert.deepEqual(v2.sample_data, INVOICE.sample_data);
    assert.deepEqual(v2.settings, INVOICE.settings);
    const v3 = await ok(server.base, 'PUT', path(t.id), key, { sample_data: { number: 'N-9' } });
    assert.equal(v3.version, 3);
    assert.deepEqual(v3.sample_data, { number: 'N-9' });
    assert.equal(v3.html, '<h2>{{ number }}</h2>');
  });

  it('PUT replaces settings as a whole', async () => {
    const t = await createTemplate(server.base, key);
    const v2 = await ok(server.base, 'PUT', path(t.id), key, { settings: { margin: '1in' } });
    assert.equal(v2.version, 2);
    assert.deepEqual(v2.settings, { margin: '1in' });
  });

  it('css null removes the stylesheet (a new version); null again changes nothing', async () => {
    const t = await createTemplate(server.base, key);
    const v2 = await ok(server.base, 'PUT', path(t.id), key, { css: null });
    assert.equal(v2.version, 2);
    assert.equal(v2.css, null);
    const again = await ok(server.base, 'PUT', path(t.id), key, { css: null });
    assert.equal(again.version, 2);
    assert.equal(again.current_version, 2);
  });

  it('a name-only PUT renames without a new version', async () => {
    const t = await createTemplate(server.base, key);
    clock.advance(1000);
    const renamed = await ok(server.base, 'PUT', path(t.id), key, { name: 'Renamed' });
    assert.equal(renamed.name, 'Renamed');
    assert.equal(renamed.version, 1);
    assert.equal(renamed.current_version, 1);
    assert.equal(renamed.updated_at, clock.now().toISOString());
    const versions = await ok(server.base, 'GET', path(t.id, '/versions'), key);
    // The spec's fields; `message` and `author` are the extension's (asserted below).
    const spec = versions.data.map(({ version, created_at }: { version: number; created_at: string }) => ({
      version,
      created_at,
    }));
    assert.deepEqual(spec, [{ version: 1, created_at: t.updated_at }]);
  });

  it('a PUT that changes nothing makes no version and keeps updated_at', async () => {
    const t = await createTemplate(server.base, key);
    clock.advance(1000);
    const same = await ok(server.base, 'PUT', path(t.id), key, {
      name: t.name,
      html: t.html,
      css: t.css,
      // Same sample data and settings in another key order are the same content.
      sample_data: { customer: { name: 'Sample Customer' }, number: 'S-1' },
      settings: { format: 'A5', mode: 'fast' },
    });
    assert.equal(same.version, 1);
    assert.equal(same.current_version, 1);
    assert.equal(same.updated_at, t.updated_at);
  });

  it('GET ?version returns that version; versions are listed newest first; a missing version is template_not_found', async () => {
    const t = await createTemplate(server.base, key);
    await ok(server.base, 'PUT', path(t.id), key, { html: '<p>two</p>' });
    const v1 = await ok(server.base, 'GET', `${path(t.id)}?version=1`, key);
    assert.equal(v1.version, 1);
    assert.equal(v1.current_version, 2);
    assert.equal(v1.html, INVOICE.html);
    assert.match(v1.thumbnail_url, /\?v=1&/);
    const current = await api(server.base, 'GET', path(t.id), { key });
    assert.equal(current.json.version, 2);
    assert.equal(current.headers.get('cache-control'), 'no-store');
    assertError(await api(server.base, 'GET', `${path(t.id)}?version=3`, { key }), 404, 'template_not_found');
    assertError(await api(server.base, 'GET', `${path(t.id)}?version=0`, { key }), 400, 'invalid_request');
    const versions = await ok(server.base, 'GET', path(t.id, '/versions'), key);
    assert.deepEqual(
      versions.data.map((v: { version: number }) => v.version),
      [2, 1],
    );
  });

  it('extension message: a note and the author on each version; the spec fields unchanged', async () => {
    const t = await ok(
      server.base,
      'POST',
      '/v1/templates',
      key,
      { ...INVOICE, message: 'First draft' },
      201,
    );
    assert.equal('message' in t, false, 'the Template answer keeps the spec fields only');
    await ok(server.base, 'PUT', path(t.id), key, { html: '<p>two</p>', message: '  Shorter heading  ' });
    await ok(server.base, 'PUT', path(t.id), key, { html: '<p>three</p>' });
    // No content change makes no version, so the note goes nowhere.
    await ok(server.base, 'PUT', path(t.id), key, { message: 'nothing changed' });
    const versions = (await ok(server.base, 'GET', path(t.id, '/versions'), key)).data;
    assert.deepEqual(
      versions.map((v: { version: number; message: string | null }) => [v.version, v.message]),
      [
        [3, null],
        [2, 'Shorter heading'],
        [1, 'First draft'],
      ],
    );
    assert.deepEqual(Object.keys(versions[0]).sort(), ['author', 'created_at', 'message', 'version']);
    const prefix = key.slice(0, 12);
    for (const v of versions) {
      assert.ok(v.author.endsWith(`(${prefix}…)`), `author names the key by its prefix: ${v.author}`);
      assert.equal(v.author.includes(key), false, 'never the key itself');
    }
    const long = await api(server.base, 'PUT', path(t.id), {
      key,
      body: { html: 'x', message: 'n'.repeat(501) },
    });
    assertError(long, 400, 'invalid_request');
    const created = await api(server.base, 'POST', '/v1/templates', {
      key,
      body: { ...INVOICE, message: 7 },
    });
    assertError(created, 400, 'invalid_request');
  });

  it('pin sets pinned_version (summary answer), null unpins, a missing version is template_not_found', async () => {
    const t = await createTemplate(server.base, key);
    await ok(server.base, 'PUT', path(t.id), key, { html: '<p>two</p>' });
    const pinned = await api(server.base, 'POST', path(t.id, '/pin'), { key, body: { version: 1 } });
    assert.equal(pinned.status, 200);
    assert.equal(pinned.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(pinned.json).sort(), [
      'current_version',
      'id',
      'name',
      'pinned_version',
      'thumbnail_url',
      'updated_at',
    ]);
    assert.equal(pinned.json.pinned_version, 1);
    assert.equal(pinned.json.current_version, 2);
    assertError(
      await api(server.base, 'POST', path(t.id, '/pin'), { key, body: { version: 3 } }),
      404,
      'template_not_found',
    );
    assertError(
      await api(server.base, 'POST', path(t.id, '/pin'), { key, body: {} }),
      400,
      'invalid_request',
    );
    const unpinned = await ok(server.base, 'POST', path(t.id, '/pin'), key, { version: null });
    assert.equal(unpinned.pinned_version, null);
  });

  it('keeps the latest 50 versions plus the pinned one', async () => {
    const t = await createTemplate(server.base, key, { name: 'many', html: '<p>1</p>' });
    await ok(server.base, 'POST', path(t.id, '/pin'), key, { version: 1 });
    for (let n = 2; n <= 53; n++) {
      const v = await ok(server.base, 'PUT', path(t.id), key, { html: `<p>${n}</p>` });
      assert.equal(v.version, n);
    }
    const listed = (await ok(server.base, 'GET', path(t.id, '/versions'), key)).data.map(
      (v: { version: number }) => v.version,
    );
    const expected = [...Array.from({ length: 50 }, (_, i) => 53 - i), 1];
    assert.deepEqual(listed, expected);
    assert.equal((await ok(server.base, 'GET', `${path(t.id)}?version=1`, key)).html, '<p>1</p>');
    assertError(await api(server.base, 'GET', `${path(t.id)}?version=2`, { key }), 404, 'template_not_found');
    // Unpinning leaves version 1 outside "latest 50 plus pinned": it goes too.
    clock.advance(61_000);
    await ok(server.base, 'POST', path(t.id, '/pin'), key, { version: null });
    const after = await ok(server.base, 'GET', path(t.id, '/versions'), key);
    assert.equal(after.data.length, 50);
    assertError(await api(server.base, 'GET', `${path(t.id)}?version=1`, { key }), 404, 'template_not_found');
  });

  it('DELETE answers 204; the template is then not found everywhere', async () => {
    const t = await createTemplate(server.base, key);
    const del = await api(server.base, 'DELETE', path(t.id), { key });
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PUT', '', { name: 'x' }],
      ['DELETE', '', undefined],
      ['GET', '/versions', undefined],
      ['POST', '/pin', { version: 1 }],
      ['GET', '/fields', undefined],
      ['POST', '/preview', {}],
    ] as const) {
      assertError(
        await api(server.base, method, path(t.id, suffix), { key, body }),
        404,
        'template_not_found',
      );
    }
    assertError(await api(server.base, 'GET', path(UNKNOWN_ID), { key }), 404, 'template_not_found');
    assertError(await api(server.base, 'GET', path('not-a-uuid'), { key }), 400, 'invalid_request');
  });

  it('lists summaries most recently updated first with limit, offset and has_more', async () => {
    const other = await server.team('scale');
    const k = other.live;
    const a = await createTemplate(server.base, k, { name: 'a', html: 'a' });
    clock.advance(1000);
    const b = await createTemplate(server.base, k, { name: 'b', html: 'b' });
    clock.advance(1000);
    const c = await createTemplate(server.base, k, { name: 'c', html: 'c' });
    clock.advance(1000);
    await ok(server.base, 'PUT', path(a.id), k, { name: 'a2' });
    const first = await api(server.base, 'GET', '/v1/templates?limit=2', { key: k });
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.deepEqual(
      first.json.data.map((s: { id: string }) => s.id),
      [a.id, c.id],
    );
    assert.equal(first.json.has_more, true);
    assert.equal(first.json.data[0].name, 'a2');
    assert.equal(first.json.data[0].html, undefined);
    const rest = await ok(server.base, 'GET', '/v1/templates?limit=2&offset=2', k);
    assert.deepEqual(
      rest.data.map((s: { id: string }) => s.id),
      [b.id],
    );
    assert.equal(rest.has_more, false);
    const all = await ok(server.base, 'GET', '/v1/templates', k);
    assert.equal(all.data.length, 3);
    assertError(await api(server.base, 'GET', '/v1/templates?limit=101', { key: k }), 400, 'invalid_request');
  });
});
