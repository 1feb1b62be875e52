import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, TEST_DATABASE_URL } from '../../helpers/database.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';

/**
 * Two API processes (two app instances, each its own pg pool) on one PostgreSQL: a key's per-minute budget
 * is one budget, so the request after it is refused whichever instance it reaches.
 */
/** The spec's test-key budget (QUIRE_TEST_KEY_RATE_PER_MIN's default). */
const TEST_KEY_RATE_LIMIT = 20;

describe('request budgets shared by two app instances on PostgreSQL', { skip: !TEST_DATABASE_URL }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const servers: TestServer[] = [];

  before(async () => {
    database = await createTestDatabase();
    for (let i = 0; i < 2; i++) servers.push(await startTestServer({ databaseUrl: database.url }));
  });
  after(async () => {
    for (const server of servers) await server.close();
    await database.drop();
  });

  it('refuses the N+1th request of a test key on either instance', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const { test } = await a.team('growth');
    for (let i = 0; i < TEST_KEY_RATE_LIMIT; i++) {
      const server = i % 2 === 0 ? a : b;
      const res = await api(server.base, 'GET', '/v1/templates', { key: test });
      assert.equal(res.status, 200, `request ${i + 1} on instance ${i % 2}: ${res.text}`);
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(TEST_KEY_RATE_LIMIT - i - 1));
    }
    for (const server of [a, b]) {
      const refused = await api(server.base, 'GET', '/v1/templates', { key: test });
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.json.error.code, 'rate_limited');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    }
  });
});
