import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, serverForBlock, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';

const TOKEN = 'metrics-token-0123456789';

/** Prometheus text → sample value by `name{labels}` (label order as exposed). */
function parseSamples(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*(?:\{.*\})?) (\S+)$/.exec(line);
    assert.ok(match, `not a Prometheus sample line: ${line}`);
    samples.set(match[1] ?? '', Number(match[2]));
  }
  return samples;
}

describe('GET /metrics and GET /version', () => {
  let server: TestServer;
  let team: TestTeam;
  serverWithTeam('growth', (both) => ({ server, team } = both), { metricsToken: TOKEN });

  const scrape = async () => {
    const res = await api(server.base, 'GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return parseSamples(res.text);
  };

  it('refuses a missing or wrong token', async () => {
    assert.equal((await api(server.base, 'GET', '/metrics')).status, 401);
    const wrong = await api(server.base, 'GET', '/metrics', { headers: { authorization: 'Bearer nope' } });
    assert.equal(wrong.status, 401);
    assert.ok(!wrong.text.includes(TOKEN));
  });

  it('counts a render, its HTTP request and stored bytes; exposes pool, queue and event-loop gauges', async () => {
    const before = await scrape();
    const ok = 'quire_renders_total{mode="fast",outcome="ok"}';
    const pdfRoute = 'quire_http_requests_total{route="/v1/pdf",method="POST",status="200"}';
    const made = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { html: '<h1>counted</h1>', response: 'url' },
    });
    assert.equal(made.status, 200, made.text);
    const afterRender = await scrape();
    assert.equal(afterRender.get(ok), (before.get(ok) ?? 0) + 1);
    assert.equal(afterRender.get(pdfRoute), (before.get(pdfRoute) ?? 0) + 1);
    assert.equal(
      afterRender.get('quire_render_duration_seconds_count{mode="fast",outcome="ok"}'),
      afterRender.get(ok),
    );
    assert.ok((afterRender.get('quire_stored_bytes') ?? 0) > (before.get('quire_stored_bytes') ?? 0));
    for (const name of [
      'quire_pool_pages_busy',
      'quire_renders_waiting',
      'quire_chromium_relaunches_total',
      'nodejs_eventloop_lag_seconds',
    ])
      assert.ok(afterRender.has(name), name);
    const failed = await api(server.base, 'POST', '/v1/pdf', { key: team.live, body: { html: '' } });
    assert.equal(failed.status, 400);
    const afterError = await scrape();
    const badRequests = [...afterError.entries()].filter(
      ([k]) => k.startsWith('quire_http_requests_total{route="/v1/pdf"') && k.includes('status="400"'),
    );
    assert.equal(badRequests.length, 1);
  });

  it('GET /version names Quire to anyone; its commit and Chromium only with a key or the metrics token', async () => {
    await api(server.base, 'POST', '/v1/pdf', { key: team.live, body: { html: '<p>x</p>' } });
    const anonymous = await api(server.base, 'GET', '/version');
    assert.equal(anonymous.status, 200);
    assert.deepEqual(Object.keys(anonymous.json), ['version', 'einvoice_rules']);
    assert.match(anonymous.json.version, /^\d+\.\d+\.\d+/);
    // The e-invoice rule sets are the release's published facts: listed to anyone (extension).
    assert.deepEqual(
      anonymous.json.einvoice_rules.find((r: { name: string }) => r.name === 'OpenPeppol BIS Billing 3.0'),
      { name: 'OpenPeppol BIS Billing 3.0', version: '3.0.21' },
    );
    const wrong = await api(server.base, 'GET', '/version', { headers: { authorization: 'Bearer nope' } });
    assert.deepEqual(Object.keys(wrong.json), ['version', 'einvoice_rules'], 'a wrong token is anonymous');
    assert.equal(anonymous.headers.get('vary'), 'authorization');
    const withKey = await api(server.base, 'GET', '/version', { key: team.test });
    const withToken = await api(server.base, 'GET', '/version', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    for (const res of [withKey, withToken]) {
      assert.equal(res.status, 200);
      assert.equal(res.json.version, anonymous.json.version);
      assert.match(res.json.chromium, /^\d+\.\d+/);
      assert.ok(res.json.commit === null || /^[0-9a-f]{40}$/.test(res.json.commit));
    }
  });
});

describe('metrics are off by default', () => {
  let server: TestServer;
  serverForBlock((s) => (server = s));

  it('answers 404 without QUIRE_METRICS_TOKEN or QUIRE_METRICS=public', async () => {
    assert.equal((await api(server.base, 'GET', '/metrics')).status, 404);
  });
});
