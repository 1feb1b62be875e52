import assert from 'node:assert/strict';
import type http from 'node:http';
import { describe, it } from 'node:test';
import { type Rng, randomJson } from '../../helpers/random.js';
import { pdfBodiesProperty, type TestServer, type TestTeam } from '../../helpers/server.js';
import { type TestServer as PageServer, serverWithPages } from '../render/helpers.js';

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
  const page: http.RequestListener = (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Page</title><p>from the page</p>');
  serverWithPages(
    { '/page': page },
    'scale',
    { renderTimeoutMs: RENDER_LIMIT_MS },
    (all) => ({ pages, server, team } = all),
  );

  it(`answers ${RUNS} random bodies (seed ${SEED}) with a PDF, invalid_request or render_timeout`, () => {
    const randomPageBody = (r: Rng) => randomBody(r, `${pages.origin}/page`);
    return pdfBodiesProperty(
      server,
      team.live,
      { seed: SEED, runs: RUNS, randomBody: randomPageBody },
      (res, body, what) => {
        if (res.status === 504) {
          assert.ok(body.wait_for !== undefined, what);
          assert.equal(res.json.error.code, 'render_timeout', what);
          assert.match(res.json.error.message, /waited for/, what);
          return;
        }
        assert.equal(res.status, 400, what);
        assert.equal(res.json.error.code, 'invalid_request', what);
        // Whichever rule answers first, a refusal of the source URL itself names the right reason.
        const url = body.source_url;
        if (typeof url !== 'string' || res.json.error.details?.field !== 'source_url') return;
        if (/^(file|ftp|javascript):/.test(url)) assert.equal(res.json.error.details.reason, 'scheme', what);
        if (/localhost|\[::1\]|169\.254/.test(url))
          assert.equal(res.json.error.details.reason, 'private_address', what);
      },
    );
  });
});
