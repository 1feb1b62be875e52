import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_JSON_DEPTH } from '../../../src/http/json-depth.js';
import { rng } from '../../helpers/random.js';
import { type ApiResponse, api, REQUEST_ID, serverWithTeam, type TestServer } from '../../helpers/server.js';

/** `levels` arrays inside each other around `inner`, as JSON text (JSON.stringify itself fails on such depth). */
const nested = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);

function assertTooDeep(r: ApiResponse, field: string | null, label = ''): void {
  assert.equal(r.status, 400, `${label} ${r.text.slice(0, 200)}`);
  assert.equal(r.json.error.code, 'invalid_request', label);
  assert.match(r.json.error.message, new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`), label);
  if (field) assert.match(r.json.error.message, new RegExp(`"${field}"`), label);
  assert.match(r.headers.get('x-request-id') ?? '', REQUEST_ID);
}

describe('deeply nested JSON bodies are invalid_request, never a 500', () => {
  let server: TestServer;
  let keys: { live: string; test: string };
  const post = (path: string, rawBody: string) =>
    api(server.base, 'POST', path, {
      key: keys.live,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });

  serverWithTeam('growth', (both) => ({ server, team: keys } = both));

  it('refuses metadata nested 5,000 levels', async () => {
    assertTooDeep(await post('/v1/pdf', `{"html":"<p>x</p>","metadata":{"a":${nested(5000)}}}`), 'metadata');
  });

  it('refuses template sample_data nested 20,000 levels', async () => {
    const body = `{"name":"deep","html":"<p>{{ a }}</p>","sample_data":{"a":${nested(20_000)}}}`;
    assertTooDeep(await post('/v1/templates', body), 'sample_data');
  });

  it('refuses async data nested 20,000 levels', async () => {
    const body = `{"html":"<p>x</p>","async":true,"data":{"a":${nested(20_000)}}}`;
    assertTooDeep(await post('/v1/pdf', body), 'data');
  });

  it('renders data nested exactly to the limit', async () => {
    // The body is level 1 and `data` level 2, so its value may hold the remaining levels.
    const body = `{"html":"<p>{{ a.size }}</p>","test":true,"data":{"a":${nested(MAX_JSON_DEPTH - 2)}}}`;
    const r = await post('/v1/pdf', body);
    assert.equal(r.status, 200, r.text.slice(0, 200));
    assert.equal(r.headers.get('content-type'), 'application/pdf');
    assertTooDeep(
      await post('/v1/pdf', `{"html":"<p>x</p>","data":{"a":${nested(MAX_JSON_DEPTH - 1)}}}`),
      'data',
    );
  });

  it('answers random deep bodies on every JSON route with 4xx (property)', async () => {
    const openapi = (await api(server.base, 'GET', '/v1/openapi.json')).json as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    const routes = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op.requestBody !== undefined)
        .map(([method]) => ({ method: method.toUpperCase(), path })),
    );
    assert.ok(routes.length >= 5);
    const r = rng(20261123);
    // The team's 120 requests a minute cover fewer than the routes' six bodies each: a fresh team every 100.
    let key = keys.live;
    let sent = 0;
    for (const route of routes) {
      const path = `/v1${route.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000')}`;
      for (let i = 0; i < 6; i++) {
        // Half just around the limit, half far beyond it; objects and arrays mixed, brackets in strings.
        const depth = i % 2 === 0 ? MAX_JSON_DEPTH - 5 + r.int(10) : 1000 + r.int(30_000);
        let inner = r.pick(['1', '"]]}}"', '"\\"[{"', 'null']);
        for (let level = 2; level <= depth; level++) inner = r.next() < 0.5 ? `[${inner}]` : `{"k":${inner}}`;
        const field = r.pick(['data', 'metadata', 'sample_data', 'e_invoice', 'x']);
        if (++sent % 100 === 0) key = (await server.team('growth')).live;
        const res = await api(server.base, route.method, path, {
          key,
          rawBody: `{"${field}":${inner}}`,
          headers: { 'content-type': 'application/json' },
        });
        const label = `${route.method} ${path} depth ${depth}`;
        assert.ok(res.status >= 400 && res.status < 500, `${label} → ${res.status}`);
        assert.equal(typeof res.json?.error?.code, 'string', label);
        if (depth > MAX_JSON_DEPTH) assertTooDeep(res, field, label);
      }
    }
  });
});
