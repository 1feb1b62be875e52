import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { revokeApiKey, updateTeam } from '../../../src/accounts/teams.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { type ApiResponse, api, REQUEST_ID, serverForBlock, type TestServer } from '../../helpers/server.js';

/**
 * Spends a test key's per-minute budget of `limit` requests to /me, each answered and naming the limit;
 * the next request's refusal (429), for its message.
 */
async function spendTestKeyBudget(server: TestServer, key: string, limit: number): Promise<ApiResponse> {
  for (let i = 1; i <= limit; i++) {
    const r = await api(server.base, 'GET', '/v1/me', { key });
    assert.equal(r.status, 200, `request ${i}: ${r.text}`);
    assert.equal(r.headers.get('x-ratelimit-limit'), String(limit));
  }
  const limited = await api(server.base, 'GET', '/v1/me', { key });
  assert.equal(limited.status, 429);
  return limited;
}

describe('authentication and per-team rate limits', () => {
  const clock = new ManualClock();
  let server: TestServer;
  serverForBlock((s) => (server = s), {}, { clock });

  it('answers both key modes on /me and /account with the key prefix', async () => {
    const t = await server.team('growth');
    const live = await api(server.base, 'GET', '/v1/me', { key: t.live });
    assert.equal(live.status, 200);
    assert.equal(live.json.key.mode, 'live');
    assert.ok(t.live.startsWith(live.json.key.prefix));
    assert.ok(live.json.key.prefix.startsWith('qk_live_'));
    assert.deepEqual(live.json.team, { id: t.team.id, name: t.team.name, plan: 'growth' });
    assert.equal(live.json.plan.rate_limit_per_min, 120);
    assert.equal(live.json.plan.webhooks, true);
    const test = await api(server.base, 'GET', '/v1/account', { key: t.test });
    assert.equal(test.status, 200);
    assert.deepEqual(test.json.key, { mode: 'test', prefix: t.test.slice(0, 12) });
  });

  it('refuses missing, malformed, unknown and revoked keys with 401 invalid_api_key', async () => {
    const t = await server.team();
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: t.live },
      { authorization: `Basic ${t.live}` },
      { authorization: `Bearer  ${t.live}` },
      { authorization: 'Bearer qk_live_short' },
      { authorization: `Bearer qk_live_${'A'.repeat(32)}` },
    ];
    for (const headers of cases) {
      const r = await api(server.base, 'GET', '/v1/me', { headers });
      assert.equal(r.status, 401, JSON.stringify(headers));
      assert.equal(r.json.error.code, 'invalid_api_key');
      assert.match(r.headers.get('x-request-id') ?? '', REQUEST_ID);
    }
    await revokeApiKey(server.built.services.db, clock, t.live);
    const revoked = await api(server.base, 'GET', '/v1/me', { key: t.live });
    assert.equal(revoked.status, 401);
    assert.match(revoked.json.error.message, /revoked/);
    assert.equal((await api(server.base, 'GET', '/v1/me', { key: t.test })).status, 200);
  });

  it('refuses a suspended team with 403 forbidden', async () => {
    const t = await server.team();
    await updateTeam(server.built.services.db, t.team.id, { suspended: true });
    const r = await api(server.base, 'GET', '/v1/me', { key: t.live });
    assert.equal(r.status, 403);
    assert.equal(r.json.error.code, 'forbidden');
    await updateTeam(server.built.services.db, t.team.id, { suspended: false });
    assert.equal((await api(server.base, 'GET', '/v1/me', { key: t.live })).status, 200);
  });

  it('counts per team and key mode in a fixed window and rolls over', async () => {
    const t = await server.team('free');
    for (let i = 1; i <= 30; i++) {
      const r = await api(server.base, 'GET', '/v1/me', { key: t.live });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-ratelimit-limit'), '30');
      assert.equal(r.headers.get('x-ratelimit-remaining'), String(30 - i));
    }
    const limited = await api(server.base, 'GET', '/v1/me', { key: t.live });
    assert.equal(limited.status, 429);
    assert.equal(limited.json.error.code, 'rate_limited');
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60);
    // The test key has its own budget of 20.
    const test = await api(server.base, 'GET', '/v1/me', { key: t.test });
    assert.equal(test.status, 200);
    assert.equal(test.headers.get('x-ratelimit-limit'), '20');
    clock.advance(30_000);
    assert.equal((await api(server.base, 'GET', '/v1/me', { key: t.live })).status, 429);
    clock.advance(30_001);
    const rolled = await api(server.base, 'GET', '/v1/me', { key: t.live });
    assert.equal(rolled.status, 200);
    assert.equal(rolled.headers.get('x-ratelimit-remaining'), '29');
    assert.equal(rolled.headers.get('x-ratelimit-reset'), '60');
  });

  it('holds test keys to the spec’s 20 a minute and names the setting that raises it', async () => {
    const t = await server.team('scale');
    const limited = await spendTestKeyBudget(server, t.test, 20);
    assert.equal(limited.json.error.code, 'rate_limited');
    assert.match(limited.json.error.message, /QUIRE_TEST_KEY_RATE_PER_MIN/);
    // A live key's refusal is the plan's business, not the test-key setting's.
    assert.equal((await api(server.base, 'GET', '/v1/me', { key: t.live })).status, 200);
  });

  it('reports usage for the current monthly UTC period', async () => {
    const t = await server.team('starter');
    const r = await api(server.base, 'GET', '/v1/account/usage', { key: t.test });
    assert.equal(r.status, 200);
    assert.equal(r.json.period_start, '2026-01-01T00:00:00.000Z');
    assert.equal(r.json.period_end, '2026-02-01T00:00:00.000Z');
    assert.equal(r.json.docs_used, 0);
    assert.equal(r.json.docs_included, 2000);
    // A team created on a paid plan starts with an active subscription: overage is available.
    assert.equal(r.json.overage_blocked_reason, null);
  });
});

describe('QUIRE_TEST_KEY_RATE_PER_MIN on a self-hosted server', () => {
  let server: TestServer;
  serverForBlock((s) => (server = s), { testKeyRatePerMin: 25 });

  it('raises the test keys’ budget and leaves live keys at the plan’s', async () => {
    const t = await server.team('free');
    const limited = await spendTestKeyBudget(server, t.test, 25);
    assert.match(limited.json.error.message, /25 requests per minute.*QUIRE_TEST_KEY_RATE_PER_MIN/);
    const live = await api(server.base, 'GET', '/v1/me', { key: t.live });
    assert.equal(live.headers.get('x-ratelimit-limit'), '30');
  });
});
