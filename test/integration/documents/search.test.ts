import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';

/**
 * GET /v1/documents?q= (extension; the dashboard's search box): a whole document id, or text in the file
 * name or in a metadata key or value, case-insensitive, with LIKE's wildcards taken literally.
 */
describe('document log search (q)', () => {
  let server: TestServer;
  let t: TestTeam;
  const ids = { acme: '', globex: '', plain: '', other: '' };

  const render = async (body: Record<string, unknown>, key = t.live) => {
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key,
      body: { html: '<p>x</p>', response: 'url', ...body },
    });
    assert.equal(r.status, 200, r.text);
    return r.json.id as string;
  };
  const search = async (q: string) => {
    const r = await api(server.base, 'GET', `/v1/documents?q=${encodeURIComponent(q)}`, { key: t.live });
    assert.equal(r.status, 200, `${q}: ${r.text}`);
    return (r.json.data as { id: string }[]).map((d) => d.id).sort();
  };

  before(async () => {
    server = await startTestServer();
    t = await server.team('growth');
    ids.acme = await render({
      filename: 'invoice_2026-05',
      metadata: { customer: 'ACME "Corp"', order: 'A-17' },
    });
    ids.globex = await render({ filename: 'invoice-2026-06', metadata: { customer: 'Globex 100%' } });
    ids.plain = await render({});
    // Another team's document never shows, whatever matches.
    const other = await server.team('growth');
    ids.other = await render({ filename: 'invoice_2026-05', metadata: { customer: 'ACME' } }, other.live);
  });
  after(async () => server.close());

  it('finds by whole id, file name part and metadata value, case-insensitive', async () => {
    assert.deepEqual(await search(ids.plain), [ids.plain]);
    assert.deepEqual(await search(ids.plain.slice(0, 8)), [], 'an id matches only whole');
    assert.deepEqual(await search('INVOICE'), [ids.acme, ids.globex].sort());
    assert.deepEqual(await search('acme'), [ids.acme]);
    assert.deepEqual(await search('a-17'), [ids.acme]);
    assert.deepEqual(await search('"Corp"'), [ids.acme], 'quotes in a value are found as typed');
    assert.deepEqual(await search('nothing like it'), []);
  });

  it('takes %, _ and \\ literally', async () => {
    assert.deepEqual(await search('%'), [ids.globex], 'only the value that has a % sign');
    assert.deepEqual(await search('invoice_'), [ids.acme], '_ is not a one-character wildcard');
    assert.deepEqual(await search('\\'), []);
  });

  it('combines with the other filters and pages with them', async () => {
    const r = await api(server.base, 'GET', '/v1/documents?q=invoice&status=failed', { key: t.live });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.data, []);
    const first = await api(server.base, 'GET', '/v1/documents?q=invoice&limit=1', { key: t.live });
    const second = await api(
      server.base,
      'GET',
      `/v1/documents?q=invoice&limit=1&before=${encodeURIComponent(first.json.next_before)}`,
      { key: t.live },
    );
    assert.deepEqual(
      [...first.json.data, ...second.json.data].map((d: { id: string }) => d.id).sort(),
      [ids.acme, ids.globex].sort(),
    );
    assert.equal(second.json.next_before, null);
  });

  it('refuses an empty or over-long q with invalid_request naming it', async () => {
    for (const q of ['', 'x'.repeat(201)]) {
      const r = await api(server.base, 'GET', `/v1/documents?q=${q}`, { key: t.live });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.error.code, 'invalid_request');
      assert.match(r.json.error.message, /q/);
    }
  });

  it('answers any search text (100 random strings of quotes, wildcards, escapes and Unicode) with a list', async () => {
    // A Pro team of its own: its 300 requests a minute hold the whole run.
    const fuzzer = await server.team('pro');
    // A seeded generator: the same strings on every run (fast-check is not a dependency).
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = ['%', '_', '\\', "'", '"', '\u0000', 'é', 'ß', '😀', 'a', 'Z', ' ', '[', ']', '*', '?'];
    for (let run = 0; run < 100; run++) {
      const q = Array.from(
        { length: 1 + Math.floor(next() * 12) },
        () => alphabet[Math.floor(next() * alphabet.length)],
      ).join('');
      const r = await api(server.base, 'GET', `/v1/documents?q=${encodeURIComponent(q)}`, {
        key: fuzzer.live,
      });
      assert.ok(
        r.status === 200 || (r.status === 400 && r.json.error.code === 'invalid_request'),
        `${JSON.stringify(q)}: ${r.status} ${r.text}`,
      );
      if (r.status === 200) {
        for (const d of r.json.data as { id: string }[])
          assert.notEqual(d.id, ids.other, 'never another team');
      }
    }
  });
});
