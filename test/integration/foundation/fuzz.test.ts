import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomJson, rng } from '../../helpers/random.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';

const REQUESTS_PER_ROUTE = Number(process.env.QUIRE_FUZZ_REQUESTS ?? 25);

interface Route {
  method: string;
  path: string;
  bodyKeys: string[];
}

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      { requestBody?: { content?: Record<string, { schema?: { $ref?: string; properties?: object } }> } }
    >
  >;
  components?: { schemas?: Record<string, { properties?: object }> };
}

/** Every route of the OpenAPI document, with the property names of its body (to aim random bodies). */
function routesOf(openapi: OpenApi): Route[] {
  const routes: Route[] = [];
  for (const [path, methods] of Object.entries(openapi.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const schema = op.requestBody?.content?.['application/json']?.schema;
      // Named bodies are `$ref`s to components.schemas.
      const name = schema?.$ref?.split('/').pop();
      const resolved = name ? openapi.components?.schemas?.[name] : schema;
      routes.push({ method: method.toUpperCase(), path, bodyKeys: Object.keys(resolved?.properties ?? {}) });
    }
  }
  return routes;
}

const IDS = [
  '00000000-0000-4000-8000-000000000000',
  'x',
  '%00',
  '..%2F..',
  '1'.repeat(300),
  'ffffffff-ffff-ffff-ffff-ffffffffffff.png',
];

describe('fuzz: random and malformed requests never cause a 5xx', () => {
  let server: TestServer;
  let keys: { live: string; test: string };
  let routes: Route[];
  before(async () => {
    server = await startTestServer({ renderTimeoutMs: 5000 });
    keys = await server.team('scale');
    routes = routesOf((await api(server.base, 'GET', '/v1/openapi.json')).json);
  });
  after(async () => server.close());

  it('answers every route with the error object or success, never 5xx', async () => {
    const r = rng(20261122);
    assert.ok(routes.length >= 6);
    for (const route of routes) {
      for (let i = 0; i < REQUESTS_PER_ROUTE; i++) {
        const path = `/v1${route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(r.pick(IDS)))}`;
        const variant = r.int(6);
        const headers: Record<string, string> = {};
        let rawBody: string | undefined;
        if (variant === 0)
          rawBody = r.pick(['{', '[]', 'null', '"x"', '{"a":1}}', '\u0000', '{"__proto__":{"x":1}}']);
        else if (route.method !== 'GET' && route.method !== 'DELETE')
          rawBody = JSON.stringify(randomJson(r, 0, route.bodyKeys));
        if (route.method === 'GET' || route.method === 'HEAD') rawBody = undefined;
        if (rawBody !== undefined)
          headers['content-type'] =
            variant === 1
              ? r.pick(['text/plain', 'application/jsonx', 'multipart/form-data'])
              : 'application/json';
        const key = variant === 2 ? r.pick(['', 'Bearer', 'Bearer qk_live_x', keys.test]) : keys.live;
        const res = await api(server.base, route.method, path, {
          key: key.startsWith('qk_') ? key : undefined,
          rawBody,
          headers: key.startsWith('qk_') ? headers : { ...headers, authorization: key },
        });
        const label = `${route.method} ${path} ${rawBody?.slice(0, 80) ?? ''} → ${res.status}`;
        assert.ok(res.status < 500 || res.status === 503 || res.status === 504, label);
        if (res.status >= 400) {
          assert.equal(typeof res.json?.error?.code, 'string', label);
          assert.equal(typeof res.json?.error?.docs_url, 'string', label);
        }
      }
    }
  });

  it('answers random paths with 404 not_found', async () => {
    const r = rng(7);
    for (let i = 0; i < 100; i++) {
      const segments = Array.from({ length: 1 + r.int(4) }, () =>
        encodeURIComponent(r.pick(['v1', 'pdf', 'x', '..', '%', 'files', 'é', '💥', '%2e%2e'])),
      );
      const res = await api(server.base, r.pick(['GET', 'POST', 'PUT', 'PATCH']), `/${segments.join('/')}`, {
        key: keys.live,
      });
      const path = segments.join('/');
      assert.ok(res.status < 500, `${path} → ${res.status}`);
      // The one real resource these segments can spell is the API index (GET /v1): it answers 200 unless the
      // run's earlier requests used up the address's rate limit. Every other path is an error object.
      if (res.status < 400) assert.equal(path, 'v1', `${path} → ${res.status}`);
      else assert.equal(typeof res.json?.error?.code, 'string', `${path} → ${res.status}`);
    }
  });
});
