import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api } from '../../helpers/server.js';
import { type Harness, startHarness } from './harness.js';

// Public names resolve to a documentation address; these resolve to refused ones.
const zone: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
  'intranet.example.com': ['10.20.30.40'],
};
const resolve = async (host: string) => {
  const found = zone[host];
  if (!found) throw new Error('ENOTFOUND');
  return found;
};

describe('webhook endpoints API', () => {
  let h: Harness;
  let team: { id: string; live: string; test: string };
  before(async () => {
    h = await startHarness({ allowPrivateWebhooks: false }, { resolve });
    team = await h.team('growth');
  });
  after(() => h.close());

  it('creates an endpoint showing the whsec_ secret once, then hides it', async () => {
    const created = await api(h.base, 'POST', '/v1/webhooks', {
      key: team.live,
      body: { url: 'https://hooks.example.com/a', events: ['pdf.created'], description: 'main' },
    });
    assert.equal(created.status, 201);
    assert.match(created.json.secret, /^whsec_[0-9A-Za-z]{32,}$/);
    assert.equal(created.json.secret_prefix, created.json.secret.slice(0, 10));
    assert.equal(created.json.mode, 'live');
    assert.equal(created.json.status, 'enabled');
    assert.equal(created.json.disabled_reason, null);
    assert.deepEqual(created.json.events, ['pdf.created']);
    assert.equal(created.headers.get('cache-control'), 'no-store');
    const got = await api(h.base, 'GET', `/v1/webhooks/${created.json.id}`, { key: team.live });
    assert.equal(got.status, 200);
    assert.equal(got.json.secret, undefined);
    assert.equal(got.json.url, 'https://hooks.example.com/a');
  });

  it('separates modes: a test key neither sees nor reaches live endpoints', async () => {
    h.clock.advance(1_000);
    const live = await api(h.base, 'POST', '/v1/webhooks', {
      key: team.live,
      body: { url: 'https://hooks.example.com/b', events: ['pdf.created', 'pdf.failed', 'batch.completed'] },
    });
    h.clock.advance(1_000);
    const asTest = await api(h.base, 'GET', `/v1/webhooks/${live.json.id}`, { key: team.test });
    assert.equal(asTest.status, 404);
    assert.equal(asTest.json.error.code, 'webhook_not_found');
    const testCreated = await api(h.base, 'POST', '/v1/webhooks', {
      key: team.test,
      body: { url: 'https://hooks.example.com/t', events: ['pdf.created', 'pdf.failed', 'batch.completed'] },
    });
    assert.equal(testCreated.json.mode, 'test');
    const list = await api(h.base, 'GET', '/v1/webhooks', { key: team.test });
    assert.deepEqual(
      list.json.data.map((e: { id: string }) => e.id),
      [testCreated.json.id],
    );
    const liveList = await api(h.base, 'GET', '/v1/webhooks', { key: team.live });
    assert.equal(liveList.json.data[0].id, live.json.id, 'newest first');
  });

  it('updates, disables without a plan check, and deletes', async () => {
    const made = await api(h.base, 'POST', '/v1/webhooks', {
      key: team.live,
      body: { url: 'https://hooks.example.com/c', events: ['pdf.created', 'pdf.failed', 'batch.completed'] },
    });
    const id = made.json.id;
    const changed = await api(h.base, 'PUT', `/v1/webhooks/${id}`, {
      key: team.live,
      body: { url: 'https://hooks.example.com:8443/c2', events: ['pdf.failed'], description: null },
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.json.url, 'https://hooks.example.com:8443/c2');
    assert.deepEqual(changed.json.events, ['pdf.failed']);
    const off = await api(h.base, 'PUT', `/v1/webhooks/${id}`, { key: team.live, body: { enabled: false } });
    assert.equal(off.json.status, 'disabled');
    assert.equal(off.json.disabled_reason, 'manual');
    const on = await api(h.base, 'PUT', `/v1/webhooks/${id}`, { key: team.live, body: { enabled: true } });
    assert.equal(on.json.status, 'enabled');
    assert.equal(on.json.disabled_reason, null);
    const empty = await api(h.base, 'PUT', `/v1/webhooks/${id}`, { key: team.live, body: {} });
    assert.equal(empty.json.error.code, 'invalid_request');
    const unknown = await api(h.base, 'PUT', `/v1/webhooks/${id}`, {
      key: team.live,
      body: { colour: 'red' },
    });
    assert.equal(unknown.json.error.code, 'invalid_request');
    const gone = await api(h.base, 'DELETE', `/v1/webhooks/${id}`, { key: team.live });
    assert.equal(gone.status, 204);
    const again = await api(h.base, 'GET', `/v1/webhooks/${id}`, { key: team.live });
    assert.equal(again.json.error.code, 'webhook_not_found');
  });

  it('refuses an 11th endpoint per workspace (both modes count)', async () => {
    const other = await h.team('growth');
    for (let i = 0; i < 10; i += 1) {
      const key = i % 2 === 0 ? other.live : other.test;
      const r = await api(h.base, 'POST', '/v1/webhooks', {
        key,
        body: { url: `https://hooks.example.com/${i}`, events: ['pdf.created'] },
      });
      assert.equal(r.status, 201);
    }
    const eleventh = await api(h.base, 'POST', '/v1/webhooks', {
      key: other.live,
      body: { url: 'https://hooks.example.com/x', events: ['pdf.created', 'pdf.failed', 'batch.completed'] },
    });
    assert.equal(eleventh.status, 400);
    assert.equal(eleventh.json.error.code, 'invalid_request');
    const list = await api(h.base, 'GET', '/v1/webhooks', { key: other.live });
    assert.equal(list.json.data.length, 5);
  });

  it('answers feature_not_available on a plan without webhooks, but lets it disable and delete', async () => {
    const paid = await h.team('growth');
    const made = await api(h.base, 'POST', '/v1/webhooks', {
      key: paid.live,
      body: { url: 'https://hooks.example.com/f', events: ['pdf.created', 'pdf.failed', 'batch.completed'] },
    });
    await h.built.services.db.updateTable('teams').set({ plan: 'free' }).where('id', '=', paid.id).execute();
    const create = await api(h.base, 'POST', '/v1/webhooks', {
      key: paid.live,
      body: { url: 'https://hooks.example.com/g', events: ['pdf.created', 'pdf.failed', 'batch.completed'] },
    });
    assert.equal(create.status, 402);
    assert.equal(create.json.error.code, 'feature_not_available');
    const test = await api(h.base, 'POST', `/v1/webhooks/${made.json.id}/test`, { key: paid.live });
    assert.equal(test.json.error.code, 'feature_not_available');
    const move = await api(h.base, 'PUT', `/v1/webhooks/${made.json.id}`, {
      key: paid.live,
      body: { url: 'https://hooks.example.com/h' },
    });
    assert.equal(move.json.error.code, 'feature_not_available');
    const off = await api(h.base, 'PUT', `/v1/webhooks/${made.json.id}`, {
      key: paid.live,
      body: { enabled: false },
    });
    assert.equal(off.status, 200);
    const on = await api(h.base, 'PUT', `/v1/webhooks/${made.json.id}`, {
      key: paid.live,
      body: { enabled: true },
    });
    assert.equal(on.json.error.code, 'feature_not_available');
    const del = await api(h.base, 'DELETE', `/v1/webhooks/${made.json.id}`, { key: paid.live });
    assert.equal(del.status, 204);
  });

  it('answers cache-control: no-store on every webhook route, errors included', async () => {
    const made = await api(h.base, 'POST', '/v1/webhooks', {
      key: team.live,
      body: { url: 'https://hooks.example.com/ns', events: ['pdf.created'] },
    });
    const id = made.json.id;
    const missing = '00000000-0000-4000-8000-0000000000ff';
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/v1/webhooks'],
      ['GET', `/v1/webhooks/${id}`],
      ['PUT', `/v1/webhooks/${id}`, { description: 'x' }],
      ['POST', `/v1/webhooks/${id}/rotate-secret`],
      ['POST', `/v1/webhooks/${id}/test`],
      ['GET', `/v1/webhooks/${id}/deliveries`],
      ['POST', `/v1/webhooks/${id}/deliveries/${missing}/retry`],
      ['GET', `/v1/webhooks/${missing}`],
      ['PUT', `/v1/webhooks/${id}`, { colour: 'red' }],
      ['DELETE', `/v1/webhooks/${id}`],
    ];
    const seen: string[] = [];
    for (const [method, url, body] of calls) {
      const r = await api(h.base, method, url, { key: team.live, ...(body ? { body } : {}) });
      seen.push(`${method} ${url.replace(id, ':id')} ${r.status} ${r.headers.get('cache-control')}`);
    }
    assert.deepEqual(
      seen.filter((line) => !line.endsWith(' no-store')),
      [],
      'every answer carries no-store',
    );
  });

  // SSRF (spec: Errors, refused webhook URL with details.field and details.reason).
  const REFUSED: Array<[string, string]> = [
    ['http://hooks.example.com/', 'https_required'],
    ['ftp://hooks.example.com/', 'scheme'],
    ['gopher://hooks.example.com/', 'scheme'],
    ['://nothing', 'invalid'],
    [`https://hooks.example.com/${'x'.repeat(2049)}`, 'too_long'],
    ['https://admin:secret@hooks.example.com/', 'credentials'],
    ['https://hooks.example.com:8080/', 'port'],
    ['https://hooks.example.com:25/', 'port'],
    ['https://127.0.0.1/', 'private_address'],
    ['https://2130706433/', 'private_address'],
    ['https://0177.0.0.1/', 'private_address'],
    ['https://0x7f.0x0.0x0.0x1/', 'private_address'],
    ['https://0.0.0.0/', 'private_address'],
    ['https://10.0.0.1/', 'private_address'],
    ['https://172.31.255.255/', 'private_address'],
    ['https://192.168.1.1/', 'private_address'],
    ['https://169.254.169.254/latest/meta-data/', 'private_address'],
    ['https://100.100.100.200/', 'private_address'],
    ['https://239.255.255.250/', 'private_address'],
    ['https://[::1]/', 'private_address'],
    ['https://[::ffff:127.0.0.1]/', 'private_address'],
    ['https://[::ffff:10.0.0.1]/', 'private_address'],
    ['https://[fd00::1]/', 'private_address'],
    ['https://[fe80::1]/', 'private_address'],
    ['https://localhost/', 'private_address'],
    ['https://rebind.example.com/', 'private_address'],
    ['https://intranet.example.com/', 'private_address'],
    ['https://does-not-exist.example.com/', 'dns'],
  ];
  it(`refuses ${REFUSED.length} unsafe URLs on create and update with the exact reason`, async () => {
    const made = await api(h.base, 'POST', '/v1/webhooks', {
      key: team.test,
      body: { url: 'https://hooks.example.com/ok', events: ['pdf.created', 'pdf.failed', 'batch.completed'] },
    });
    assert.equal(made.status, 201);
    for (const [url, reason] of REFUSED) {
      h.clock.advance(61_000); // a fresh per-minute request budget for the test key
      const create = await api(h.base, 'POST', '/v1/webhooks', {
        key: team.test,
        body: { url, events: ['pdf.created', 'pdf.failed', 'batch.completed'] },
      });
      assert.equal(create.status, 400, url);
      assert.equal(create.json.error.code, 'invalid_request', url);
      assert.deepEqual(create.json.error.details, { field: 'url', reason }, url);
      const update = await api(h.base, 'PUT', `/v1/webhooks/${made.json.id}`, {
        key: team.test,
        body: { url },
      });
      assert.deepEqual(update.json.error.details, { field: 'url', reason }, url);
      // A private target's refusal names the operator setting that allows it; a public
      // target's does not (the setting would not help).
      const privateTarget = reason === 'private_address';
      assert.equal(
        create.json.error.message.includes('QUIRE_ALLOW_PRIVATE_WEBHOOKS=true'),
        privateTarget,
        `${url}: ${create.json.error.message}`,
      );
    }
  });

  it('names QUIRE_ALLOW_PRIVATE_WEBHOOKS when a developer points a webhook at localhost', async () => {
    for (const [url, reason] of [
      ['http://localhost:3000/hooks', 'https_required'],
      ['http://127.0.0.1/hooks', 'https_required'],
      ['https://127.0.0.1:9000/hooks', 'port'],
    ]) {
      h.clock.advance(61_000);
      const r = await api(h.base, 'POST', '/v1/webhooks', {
        key: team.live,
        body: { url, events: ['pdf.created'] },
      });
      assert.equal(r.status, 400, url);
      assert.deepEqual(r.json.error.details, { field: 'url', reason }, url);
      assert.match(r.json.error.message, /QUIRE_ALLOW_PRIVATE_WEBHOOKS=true/, url);
    }
  });
});
