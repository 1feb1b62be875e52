import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Rng, randomJson, rng } from '../../helpers/random.js';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';
import { type TestServer as PageServer, testServer } from '../render/helpers.js';

const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 27);
const RUNS = Number(process.env.QUIRE_CAPTURE_PROPERTY_RUNS ?? 40);
const RENDER_LIMIT_MS = 3000;

const SELECTORS = ['p', '#never', '[[', 'p:has(', '*', 'x'.repeat(1001)];
const EXPRESSIONS = ['true', 'document.body !== null', '1 +', 'false', 'notDefinedAnywhere', '}{', ''];

function randomWait(r: Rng): unknown {
  if (r.next() < 0.15) return randomJson(r, 1, ['selector', 'expression', 'network_idle', 'timeout_ms']);
  const wait: Record<string, unknown> = {};
  if (r.next() < 0.5) wait.selector = r.next() < 0.9 ? r.pick(SELECTORS) : randomJson(r, 2);
  if (r.next() < 0.4) wait.expression = r.next() < 0.9 ? r.pick(EXPRESSIONS) : randomJson(r, 2);
  if (r.next() < 0.3) wait.network_idle = r.next() < 0.9 ? r.next() < 0.7 : randomJson(r, 2);
  if (r.next() < 0.6) wait.timeout_ms = r.pick([0, 1, 300, 800, 30_000, 30_001, -5, 1.5, '500', null]);
  if (r.next() < 0.05) wait.extra = true;
  return wait;
}

function randomBody(r: Rng, pageUrl: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const source = r.int(4);
  if (source === 0 || r.next() < 0.1) body.html = '<p>hello</p>';
  if (source >= 1 || r.next() < 0.1) {
    body.source_url =
      r.next() < 0.85
        ? r.pick([
            pageUrl,
            pageUrl.replace('127.0.0.1', 'localhost'),
            'file:///etc/passwd',
            'ftp://example.com/x',
            'javascript:alert(1)',
            'not a url',
            'http://user:pw@127.0.0.1/',
            'http://[::1]:1/',
            'http://169.254.169.254/latest/meta-data/',
            '',
          ])
        : randomJson(r, 2);
  }
  if (r.next() < 0.1) body.data = { a: 1 };
  if (r.next() < 0.7) body.wait_for = randomWait(r);
  return body;
}

/** Property: source_url and wait_for bodies get a PDF, invalid_request or render_timeout — never another 5xx. */
describe('property: POST /v1/pdf with source_url and wait_for', () => {
  let pages: PageServer;
  let server: TestServer;
  let team: TestTeam;
  before(async () => {
    pages = await testServer({
      '/page': (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Page</title><p>from the page</p>'),
    });
    server = await startTestServer({
      renderTimeoutMs: RENDER_LIMIT_MS,
      urlAllowHosts: [`127.0.0.1:${pages.port}`],
    });
    team = await server.team('scale');
  });
  after(async () => {
    await server?.close();
    await pages?.close();
  });

  it(`answers ${RUNS} random bodies (seed ${SEED}) with a PDF, invalid_request or render_timeout`, async () => {
    const r = rng(SEED);
    const seen = new Set<number>();
    for (let i = 0; i < RUNS; i++) {
      const body = randomBody(r, `${pages.origin}/page`);
      const res = await api(server.base, 'POST', '/v1/pdf', { key: team.live, body });
      const what = `#${i} ${JSON.stringify(body).slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`;
      seen.add(res.status);
      if (res.status === 200) {
        assert.equal(res.buffer.subarray(0, 5).toString('latin1'), '%PDF-', what);
        continue;
      }
      if (res.status === 504) {
        assert.ok(body.wait_for !== undefined, what);
        assert.equal(res.json.error.code, 'render_timeout', what);
        assert.match(res.json.error.message, /waited for/, what);
        continue;
      }
      assert.equal(res.status, 400, what);
      assert.equal(res.json.error.code, 'invalid_request', what);
      // Whichever rule answers first, a refusal of the source URL itself names the right reason.
      const url = body.source_url;
      if (typeof url !== 'string' || res.json.error.details?.field !== 'source_url') continue;
      if (/^(file|ftp|javascript):/.test(url)) assert.equal(res.json.error.details.reason, 'scheme', what);
      if (/localhost|\[::1\]|169\.254/.test(url))
        assert.equal(res.json.error.details.reason, 'private_address', what);
    }
    assert.ok(seen.has(200) && seen.has(400), `statuses seen: ${[...seen].join(', ')}`);
  });
});
