import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, it } from 'node:test';
import type { Liquid } from 'liquidjs';
import { registerQuireFilters } from '../../../src/liquid/filters/index.js';
import { ERROR_CODES } from '../../../src/shared/errors.js';
import {
  type ApiOptions,
  api,
  REQUEST_ID,
  serverWithTeam,
  type TestServer,
  type TestTeam,
} from '../../helpers/server.js';

/** Sends a body in chunks without Content-Length, so the size limit must be enforced while streaming. */
function streamChunks(
  base: string,
  key: string,
  totalBytes: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${base}/v1/pdf`);
    const req = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'transfer-encoding': 'chunked',
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', (err) =>
      (err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET'
        ? undefined
        : reject(err),
    );
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    req.write('{"html":"');
    const pump = () => {
      while (sent < totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end('"}');
    };
    pump();
  });
}

describe('request conventions', () => {
  let server: TestServer;
  let team: TestTeam;
  serverWithTeam('growth', (both) => ({ server, team } = both));
  /** POST /v1/pdf with the live key: the route these conventions are shown on. */
  const postPdf = (options: Omit<ApiOptions, 'key'>) =>
    api(server.base, 'POST', '/v1/pdf', { key: team.live, ...options });

  it('answers a non-JSON body with 415 invalid_request', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const r = await postPdf({ rawBody: 'html=x', headers: { 'content-type': type } });
      assert.equal(r.status, 415, type);
      assert.equal(r.json.error.code, 'invalid_request');
    }
  });

  it('answers invalid JSON with 400 invalid_request', async () => {
    const r = await postPdf({ rawBody: '{"html": ', headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 400);
    assert.equal(r.json.error.code, 'invalid_request');
  });

  it('rejects unknown fields naming the field, and does not coerce types', async () => {
    const unknown = await postPdf({ body: { html: '<p>x</p>', colour: 'red' } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.error.code, 'invalid_request');
    assert.match(unknown.json.error.message, /colour/);
    const coerced = await postPdf({ body: { html: '<p>x</p>', test: 'true' } });
    assert.equal(coerced.status, 400);
    assert.match(coerced.json.error.message, /test/);
  });

  it('refuses a body over 5 MB with 413 payload_too_large, by Content-Length or while streaming', async () => {
    const big = await postPdf({ body: { html: 'a'.repeat(5 * 1024 * 1024 + 10) } });
    assert.equal(big.status, 413);
    assert.equal(big.json.error.code, 'payload_too_large');
    const streamed = await streamChunks(server.base, team.live, 6 * 1024 * 1024);
    assert.equal(streamed.status, 413);
    assert.equal(JSON.parse(streamed.body).error.code, 'payload_too_large');
  });

  it('refuses ids that are not UUIDs with invalid_request', async () => {
    for (const id of [
      '123',
      'not-a-uuid',
      '00000000-0000-0000-0000-00000000000g',
      'urn:uuid:00000000-0000-0000-0000-000000000000',
    ]) {
      const r = await api(server.base, 'GET', `/v1/pdf/${encodeURIComponent(id)}`, { key: team.live });
      assert.equal(r.status, 400, id);
      assert.equal(r.json.error.code, 'invalid_request');
    }
  });

  it('answers unmatched routes with 404 not_found and a request id', async () => {
    for (const [method, path] of [
      ['GET', '/nothing'],
      ['POST', '/v1'],
      ['DELETE', '/v1/me'],
      ['GET', '/v2/me'],
      ['POST', '/v1/nothing'],
    ]) {
      const r = await api(server.base, method as string, path as string);
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.json.error.code, 'not_found');
      assert.match(r.headers.get('x-request-id') ?? '', REQUEST_ID);
    }
  });

  it('puts docs_url on every error, pointing at a served page that lists every code', async () => {
    const r = await api(server.base, 'GET', '/v1/me');
    assert.equal(r.json.error.docs_url, `${server.base}/docs/errors#invalid_api_key`);
    const page = await api(server.base, 'GET', '/docs/errors');
    assert.equal(page.status, 200);
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      assert.ok(page.text.includes(`id="${code}"`), code);
      assert.ok(page.text.includes(`<td>${info.status}</td>`), code);
    }
  });

  it('serves the Liquid filter reference at /docs/liquid with an anchor per Quire filter', async () => {
    const page = await api(server.base, 'GET', '/docs/liquid');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.text, /<h1 id="liquid-in-quire">Liquid in Quire<\/h1>/);
    // Every filter Quire registers has its section, linkable as /docs/liquid#<name>.
    const registered: string[] = [];
    const spy = { registerFilter: (name: string) => registered.push(name) } as unknown as Liquid;
    registerQuireFilters(spy, { locale: 'en-US', timeZone: 'UTC' });
    assert.ok(registered.length >= 4, registered.join());
    for (const name of registered)
      assert.match(page.text, new RegExp(`<h3 id="${name}"><code>${name}`), name);
    // Tables come out as tables, with Liquid's pipe (written \\| in the markdown) and escaped quotes.
    assert.ok(
      page.text.includes('<td><code>{{ 1234.5 | money: &#34;EUR&#34;, &#34;de-DE&#34; }}</code></td>'),
      'the money example row',
    );
    assert.ok(page.text.includes('<a href="/docs">API reference</a>'));
  });

  it('serves the OpenAPI 3.1 document at version 1.0.0 and the API docs UI', async () => {
    const r = await api(server.base, 'GET', '/v1/openapi.json');
    assert.equal(r.status, 200);
    assert.equal(r.json.openapi, '3.1.0');
    assert.equal(r.json.info.version, '1.0.0');
    for (const path of ['/pdf', '/pdf/{id}', '/documents', '/me', '/account', '/account/usage'])
      assert.ok(r.json.paths[path], path);
    const ui = await api(server.base, 'GET', '/docs/');
    assert.equal(ui.status, 200);
    assert.ok(!/https?:\/\/(cdn|unpkg|jsdelivr)/.test(ui.text), 'docs UI must not load from a CDN');
    assert.match(ui.text, /<title>Quire API<\/title>/);
    // Sections in the order a user meets them; operations last.
    const sections = (r.json.tags as Array<{ name: string }>).map((tag) => tag.name);
    assert.deepEqual(sections.slice(0, 5), ['PDFs', 'Templates', 'Documents', 'Batches', 'Webhooks']);
    assert.equal(sections.at(-1), 'Operations');
  });

  it('answers the API base GET /v1 with working links, without a key', async () => {
    const index = await api(server.base, 'GET', '/v1');
    assert.equal(index.status, 200, index.text);
    assert.equal(index.json.name, 'Quire');
    assert.deepEqual(Object.keys(index.json.links).sort(), [
      'dashboard',
      'docs',
      'errors',
      'health',
      'openapi',
    ]);
    for (const [name, link] of Object.entries(index.json.links as Record<string, string>)) {
      assert.ok(link.startsWith(`${server.base}/`), `${name}: ${link} is on ${server.base}`);
      const res = await fetch(link);
      assert.equal(res.status, 200, `${name}: ${link}`);
    }
    const doc = await api(server.base, 'GET', '/v1/openapi.json');
    assert.equal(doc.json.paths['/']?.get?.operationId, 'getApiIndex');
  });

  it('reports health and readiness', async () => {
    assert.equal((await api(server.base, 'GET', '/healthz')).status, 200);
    const ready = await api(server.base, 'GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.json.status, 'ok');
  });
});
