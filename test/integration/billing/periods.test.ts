import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestTeam } from '../../helpers/server.js';
import { type BillingHarness, billingHarness } from './harness.js';

const DAY_MS = 86_400_000;

/**
 * The numbers across periods (growth 900 and scale 2,700 included a month here): proration after
 * a mid-period upgrade and downgrade, rollover across period boundaries, the export against GET
 * /account/usage, and counts that outlive the document records. One server whose clock only moves forward.
 */
describe('usage across monthly periods', () => {
  let h: BillingHarness;
  let rolling: TestTeam;
  let free: TestTeam;
  let upgraded: TestTeam;
  let downgraded: TestTeam;
  before(async () => {
    h = await billingHarness(new Date('2026-03-10T12:00:00Z'));
    rolling = await h.server.team('growth');
    free = await h.server.team('free');
  });
  after(async () => {
    await h.server.close();
  });

  const cliUsage = async (team: TestTeam) =>
    JSON.parse(await h.quire('team', 'billing', team.team.id, '--json')).usage;
  const setPlan = (team: TestTeam, plan: string) => h.quire('team', 'set-plan', team.team.id, plan);

  it('has no rollover in a team first period', async () => {
    assert.equal((await h.render(rolling.live)).status, 200);
    assert.equal((await h.render(free.live)).status, 200);
    const usage = await h.usage(rolling.live);
    assert.deepEqual(
      [usage.period_start, usage.period_end, usage.docs_used, usage.docs_included, usage.rollover_docs],
      ['2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z', 1, 900, 0],
    );
  });

  it('prorates docs_included by time after an upgrade and a downgrade within the period', async () => {
    h.clock.set(Date.parse('2026-04-01T00:00:00Z'));
    upgraded = await h.server.team('growth');
    downgraded = await h.server.team('scale');
    h.clock.set(Date.parse('2026-04-11T00:00:00Z')); // 10 of April's 30 days on growth
    await setPlan(upgraded, 'scale');
    h.clock.set(Date.parse('2026-04-25T00:00:00Z')); // 24 of 30 days on scale
    await setPlan(downgraded, 'growth');
    h.clock.set(Date.parse('2026-04-28T09:00:00Z'));
    // 900 × 10/30 + 2,700 × 20/30 = 300 + 1,800
    const up = await h.usage(upgraded.live);
    assert.deepEqual([up.plan, up.docs_included, up.rollover_docs], ['scale', 2_100, 0]);
    // 2,700 × 24/30 + 900 × 6/30 = 2,160 + 180
    const down = await h.usage(downgraded.live);
    assert.deepEqual([down.plan, down.docs_included, down.rollover_docs], ['growth', 2_340, 0]);
    assert.deepEqual(await cliUsage(upgraded), up);
  });

  it('rolls the previous period unused documents over on paid plans, at most one period worth', async () => {
    // April 28: March left 900 − 1 unused.
    let usage = await h.usage(rolling.live);
    assert.deepEqual([usage.docs_used, usage.rollover_docs, usage.docs_included], [0, 899, 1_799]);
    assert.equal((await h.usage(free.live)).rollover_docs, 0, 'never on Free');
    h.clock.set(Date.parse('2026-05-05T00:00:00Z'));
    // April left its 900 unused; April's own rollover is not carried again.
    usage = await h.usage(rolling.live);
    assert.deepEqual([usage.rollover_docs, usage.docs_included], [900, 1_800]);
    assert.equal(
      (await h.usage(upgraded.live)).rollover_docs,
      2_100,
      "April's prorated documents, all unused",
    );
    h.clock.set(Date.parse('2026-05-31T00:00:00Z'));
    await setPlan(rolling, 'starter'); // 3 included a month here
    h.clock.set(Date.parse('2026-06-02T00:00:00Z'));
    usage = await h.usage(rolling.live);
    assert.deepEqual([usage.plan, usage.rollover_docs, usage.docs_included], ['starter', 3, 6]);
    assert.deepEqual(await cliUsage(rolling), usage);
  });

  it('exports, as CSV and JSON, exactly the numbers of GET /account/usage', async () => {
    const teams = [rolling, free, upgraded, downgraded];
    const json = (await h.quire('usage', 'export', '--period', '2026-06', '--format', 'json'))
      .split('\n')
      .map((line) => JSON.parse(line));
    const csv = (await h.quire('usage', 'export', '--period', '2026-06')).split('\n');
    assert.equal(
      csv[0],
      'team_id,team_name,plan,period,docs_used,docs_included,rollover_docs,overage_docs,overage_cost_cents',
    );
    assert.equal(json.length, teams.length);
    assert.equal(csv.length, teams.length + 1);
    for (const team of teams) {
      const usage = await h.usage(team.live);
      const row = json.find((r) => r.team_id === team.team.id);
      const expected = {
        team_id: team.team.id,
        team_name: team.team.name,
        plan: usage.plan,
        period: '2026-06',
        docs_used: usage.docs_used,
        docs_included: usage.docs_included,
        rollover_docs: usage.rollover_docs,
        overage_docs: usage.overage_docs,
        overage_cost_cents: usage.overage_cost_cents,
      };
      assert.deepEqual(row, expected);
      assert.ok(csv.includes(Object.values(expected).join(',')), `CSV line of ${team.team.name}`);
    }
    const bad = await h.quireFails('usage', 'export', '--period', '2026-13');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--period YYYY-MM/);
  });

  it('keeps a period count when retention has deleted the document records', async () => {
    h.clock.set(Date.parse('2026-03-10T12:00:00Z') + 130 * DAY_MS);
    await h.server.built.services.sweeper.runOnce();
    const { db } = h.server.built.services;
    const left = await db
      .selectFrom('documents')
      .select('id')
      .where('team_id', '=', rolling.team.id)
      .execute();
    assert.equal(left.length, 0, 'the March record was swept');
    const march = (await h.quire('usage', 'export', '--period', '2026-03', '--format', 'json'))
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((r) => r.team_id === rolling.team.id);
    assert.deepEqual([march.docs_used, march.docs_included, march.plan], [1, 900, 'growth']);
  });
});
