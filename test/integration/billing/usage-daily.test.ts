import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../src/shared/clock.js';
import { rng } from '../../helpers/random.js';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';

const DAY_MS = 86_400_000;

interface Daily {
  from: string;
  to: string;
  live_total: number;
  test_total: number;
  data: { day: string; live: number; test: number }[];
}

async function daily(server: TestServer, key: string, query = ''): Promise<Daily> {
  const r = await api(server.base, 'GET', `/v1/account/usage/daily${query}`, { key });
  assert.equal(r.status, 200, r.text);
  return r.json as Daily;
}

async function render(server: TestServer, key: string): Promise<void> {
  const r = await api(server.base, 'POST', '/v1/pdf', { key, body: { html: '<p>x</p>', response: 'url' } });
  assert.equal(r.status, 200, r.text);
}

/**
 * GET /v1/account/usage/daily: documents per UTC day for the whole range, live from the
 * usage ledger and test from the document log, computed by the database (run on SQLite and PostgreSQL).
 */
describe('daily usage', () => {
  const clock = new ManualClock(new Date('2026-05-03T10:00:00Z'));
  let server: TestServer;
  let t: TestTeam;
  before(async () => {
    server = await startTestServer({}, { clock });
    t = await server.team('growth');
    // 3 May: two live, one test; 5 May (late evening UTC): one live, two test. 4 May: nothing.
    await render(server, t.live);
    await render(server, t.live);
    await render(server, t.test);
    clock.set(new Date('2026-05-05T23:59:00Z'));
    await render(server, t.live);
    await render(server, t.test);
    await render(server, t.test);
  });
  after(async () => server.close());

  it('lists every day of the current period up to today with live and test counts', async () => {
    const body = await daily(server, t.live);
    assert.equal(body.from, '2026-05-01');
    assert.equal(body.to, '2026-05-05');
    assert.deepEqual(body.data, [
      { day: '2026-05-01', live: 0, test: 0 },
      { day: '2026-05-02', live: 0, test: 0 },
      { day: '2026-05-03', live: 2, test: 1 },
      { day: '2026-05-04', live: 0, test: 0 },
      { day: '2026-05-05', live: 1, test: 2 },
    ]);
    assert.equal(body.live_total, 3);
    assert.equal(body.test_total, 3);
    const usage = await api(server.base, 'GET', '/v1/account/usage', { key: t.live });
    assert.equal(usage.json.docs_used, body.live_total, 'the live bars add up to the period’s usage');
  });

  it('answers a test key (and so a session in test mode) with both modes', async () => {
    const body = await daily(server, t.test, '?from=2026-05-03&to=2026-05-03');
    assert.deepEqual(body.data, [{ day: '2026-05-03', live: 2, test: 1 }]);
  });

  it('covers any range, across periods, with zeros where nothing was made', async () => {
    const body = await daily(server, t.live, '?from=2026-04-29&to=2026-05-06');
    assert.equal(body.data.length, 8);
    assert.deepEqual(
      body.data.filter((d) => d.live + d.test > 0).map((d) => d.day),
      ['2026-05-03', '2026-05-05'],
    );
    const other = await server.team('growth');
    assert.equal((await daily(server, other.live, '?from=2026-05-01&to=2026-05-05')).live_total, 0);
  });

  it('keeps counting live documents after their records are swept (the ledger is never swept)', async () => {
    clock.advance(130 * DAY_MS);
    await server.built.services.sweeper.runOnce();
    const body = await daily(server, t.live, '?from=2026-05-03&to=2026-05-05');
    assert.equal(body.live_total, 3);
    clock.set(new Date('2026-05-05T23:59:00Z'));
  });

  it('refuses a bad range with invalid_request naming the field and the fix', async () => {
    const reversed = await api(server.base, 'GET', '/v1/account/usage/daily?from=2026-05-06&to=2026-05-01', {
      key: t.live,
    });
    assert.equal(reversed.json.error.details.field, 'from');
    assert.match(reversed.json.error.message, /send from ≤ to/);
    const cases: [string, string][] = [
      ['?from=2026-05-06&to=2026-05-01', 'from'],
      ['?from=2024-01-01&to=2026-05-01', 'from'],
      ['?from=yesterday', 'from'],
      ['?to=2026-13-45', 'to'],
      ['?days=3', 'days'],
    ];
    for (const [query, field] of cases) {
      const r = await api(server.base, 'GET', `/v1/account/usage/daily${query}`, { key: t.live });
      assert.equal(r.status, 400, `${query}: ${r.text}`);
      assert.equal(r.json.error.code, 'invalid_request', query);
      assert.match(r.json.error.message, new RegExp(`"${field}"`), `${query}: the message names the field`);
    }
  });

  it('answers any query string with 200 or invalid_request, never a 500 (seeded fuzz)', async () => {
    const random = rng(30_5);
    const values = [
      '2026-05-01',
      '2026-02-29',
      '2026-05-01T00:00:00Z',
      '',
      '0000-00-00',
      '9999-12-31',
      '%00',
      'x',
    ];
    for (let i = 0; i < 60; i++) {
      const params = new URLSearchParams();
      for (const name of ['from', 'to', random.pick(['from', 'to', 'mode', '__proto__'])])
        if (random.next() < 0.7) params.append(name, random.pick(values));
      const r = await api(server.base, 'GET', `/v1/account/usage/daily?${params}`, { key: t.live });
      assert.ok(
        r.status === 200 || r.json?.error?.code === 'invalid_request',
        `${params}: ${r.status} ${r.text}`,
      );
    }
  });
});
