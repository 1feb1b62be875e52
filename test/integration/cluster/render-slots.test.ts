import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../../../src/storage/db.js';
import { DatabaseTeamSlots } from '../../../src/storage/render-leases.js';
import { busyDocument } from '../../helpers/chromium.js';
import { createTestDatabase } from '../../helpers/database.js';
import { NEEDS_POSTGRES } from '../../helpers/quire-process.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';

/**
 * Render slots shared by processes on one PostgreSQL: two app instances (each its own pg pool,
 * as two `quire serve` processes) serve one team; its plan's limit holds across both.
 */
describe('render slots shared by two app instances on PostgreSQL', { skip: NEEDS_POSTGRES }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const servers: TestServer[] = [];

  before(async () => {
    database = await createTestDatabase();
    for (let i = 0; i < 2; i++)
      servers.push(await startTestServer({ databaseUrl: database.url, workers: 0 }));
  });
  after(async () => {
    for (const server of servers) await server.close();
    await database.drop();
  });

  it('refuses the render past the plan limit with 429 concurrency and Retry-After: 1, whichever instance it reaches', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const { live, team } = await a.team('starter'); // 2 slots
    const held = [a, b].map((s) =>
      api(s.base, 'POST', '/v1/pdf', { key: live, body: { html: busyDocument(4000) } }),
    );
    // Both renders hold their slot (a row each in render_leases) before the third asks for one.
    const { db } = a.built.services;
    await waitUntil('both renders to hold their slot', async () => {
      const row = await db
        .selectFrom('render_leases')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('team_id', '=', team.id)
        .executeTakeFirstOrThrow();
      return Number(row.n) === 2;
    });
    for (const server of [a, b]) {
      const refused = await api(server.base, 'POST', '/v1/pdf', {
        key: live,
        body: { html: '<p>one more</p>' },
      });
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.json.error.code, 'rate_limited');
      assert.deepEqual(refused.json.error.details, { reason: 'concurrency', limit: 2 });
      assert.equal(refused.headers.get('retry-after'), '1');
    }
    for (const response of await Promise.all(held)) assert.equal(response.status, 200, response.text);
    const again = await api(b.base, 'POST', '/v1/pdf', { key: live, body: { html: '<p>after</p>' } });
    assert.equal(again.status, 200, 'released slots are free again');
  });
});

describe('render leases on PostgreSQL', { skip: NEEDS_POSTGRES }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-leases-'));

  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves one slot to direct requests across processes and frees a dead process’s slots after the TTL', async () => {
    const ttlMs = 600;
    const dbA = await openDatabase(dataDir, database.url);
    const dbB = await openDatabase(dataDir, database.url);
    const a = new DatabaseTeamSlots(dbA, { ttlMs, onError: () => {} });
    const b = new DatabaseTeamSlots(dbB, { ttlMs });
    try {
      const background = await a.tryAcquire('team-1', 3, 'background');
      const background2 = await b.tryAcquire('team-1', 3, 'background');
      assert.ok(background && background2);
      assert.equal(await a.tryAcquire('team-1', 3, 'background'), null, 'background leaves the last slot');
      assert.equal(await b.tryAcquire('team-1', 3, 'background'), null);
      const direct = await b.tryAcquire('team-1', 3, 'direct');
      assert.ok(direct, 'a direct request takes the slot background left');
      assert.equal(await a.tryAcquire('team-1', 3, 'direct'), null);
      assert.ok(await a.tryAcquire('team-2', 1, 'direct'), 'another team has its own slots');

      // B renews its leases past the TTL; A "dies": its connection is gone, its heartbeat fails.
      await dbA.destroy();
      await new Promise((resolve) => setTimeout(resolve, ttlMs * 2));
      const rows = await dbB.selectFrom('render_leases').select(['team_id', 'holder']).execute();
      assert.equal(rows.filter((r) => r.holder === b.holder).length, 2, 'the live process keeps its leases');
      const freed = await b.tryAcquire('team-1', 3, 'direct');
      assert.ok(freed, "the dead process's slot expired and is free");
      assert.equal(await b.tryAcquire('team-1', 3, 'direct'), null, 'B still holds its two plus the new one');
      await Promise.all([background2.release(), direct.release(), freed.release()]);
      assert.equal(
        (await dbB.selectFrom('render_leases').select('id').where('team_id', '=', 'team-1').execute()).length,
        0,
        "released rows are deleted; A's expired one was swept by B's heartbeat",
      );
    } finally {
      await a.close().catch(() => {});
      await b.close();
      await dbB.destroy();
    }
  });
});
