import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { createTemplate } from './helpers.js';

const BIG = 10_000;
const items = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ data: { number: `N-${i}`, customer: { name: 'C' } } }));

/**
 * A 10,000-item live batch canceled while every item waits (no render workers). The Scale plan here
 * includes exactly 10,000 documents, so a second full batch fits only if the cancel gave every reservation
 * back. The cancel's duration is printed (a measurement, not asserted: the machine is shared).
 */
describe('cancel of a 10,000-item batch', () => {
  let server: TestServer;
  before(async () => {
    const plansFile = path.join(mkdtempSync(path.join(tmpdir(), 'quire-plans-')), 'plans.json');
    writeFileSync(
      plansFile,
      JSON.stringify({ scale: { docs_per_period: BIG, overage_cents_per_doc: null } }),
    );
    server = await startTestServer({ workers: 0, plansFile });
  });
  after(async () => {
    await server.close();
  });

  it('cancels every item, logs each, gives back every reservation and frees the queue', async (t) => {
    const team = await server.team('scale');
    const templateId = await createTemplate(server.base, team.live);
    const created = await api(server.base, 'POST', '/v1/batches', {
      key: team.live,
      body: { template_id: templateId, items: items(BIG) },
    });
    assert.equal(created.status, 202, created.text);
    // The plan's documents are all reserved: one more live document is refused.
    const full = await api(server.base, 'POST', '/v1/batches', {
      key: team.live,
      body: { template_id: templateId, items: items(1) },
    });
    assert.equal(full.json?.error?.code, 'plan_limit_reached', full.text);

    // Queued, the items carry their reservations: the API process holds none of them any more.
    const held = await server.built.services.db
      .selectFrom('usage_holds')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('count'), eb.lit(0)).as('n'))
      .where('team_id', '=', team.team.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(held.n), 0);

    const started = performance.now();
    const canceled = await api(server.base, 'POST', `/v1/batches/${created.json.id}/cancel`, {
      key: team.live,
    });
    const ms = performance.now() - started;
    t.diagnostic(`cancel of ${BIG} queued items: ${ms.toFixed(0)} ms`);
    assert.equal(canceled.status, 200, canceled.text);
    assert.equal(canceled.json.status, 'canceled');
    assert.deepEqual(canceled.json.counts, {
      total: BIG,
      queued: 0,
      processing: 0,
      succeeded: 0,
      failed: 0,
      canceled: BIG,
    });

    const { db } = server.built.services;
    const openJobs = await db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'render')
      .where('status', '=', 'queued')
      .executeTakeFirstOrThrow();
    assert.equal(Number(openJobs.n), 0);
    const logged = await db
      .selectFrom('document_activity')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', team.team.id)
      .where('status', '=', 'canceled')
      .executeTakeFirstOrThrow();
    assert.equal(Number(logged.n), BIG);

    // Every reservation was given back: a second full batch fits the plan (and the open_jobs limit).
    const again = await api(server.base, 'POST', '/v1/batches', {
      key: team.live,
      body: { template_id: templateId, items: items(BIG) },
    });
    assert.equal(again.status, 202, again.text);
  });
});
