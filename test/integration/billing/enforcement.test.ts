import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api } from '../../helpers/server.js';
import { createTemplate, waitForBatch } from '../batches/helpers.js';
import { type BillingHarness, billingHarness } from './harness.js';

/**
 * An operator takes a team through every billing state with the CLI alone, and a live key then
 * gets exactly the spec's 402s at exactly the right document. Real server, real SQLite, the real CLI.
 */
describe('usage enforcement driven by the operator CLI', () => {
  let h: BillingHarness;
  before(async () => {
    h = await billingHarness(new Date('2026-03-10T12:00:00Z'));
  });
  after(async () => {
    await h.server.close();
  });

  const billing = async (...args: string[]) => JSON.parse(await h.quire('team', ...args));

  it('shows every overage_blocked_reason, in the documented precedence, in the CLI and the API alike', async () => {
    const paid = await h.server.team('starter');
    const free = await h.server.team('free');
    const reason = async (teamId: string, key: string) => {
      const cli = await billing('billing', teamId, '--json');
      assert.deepEqual(cli.usage, await h.usage(key), 'team billing shows GET /account/usage');
      return cli.usage.overage_blocked_reason;
    };
    assert.equal(await reason(free.team.id, free.live), 'free');
    assert.equal((await h.usage(free.live)).spending_cap_cents, null, 'no cap on Free');
    const refused = await h.quireFails('team', 'set-billing', free.team.id, '--subscription', 'active');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^Free teams have no subscription/);

    assert.equal(await reason(paid.team.id, paid.live), null, 'a paid team starts active, overage available');
    const billed = await billing('set-billing', paid.team.id, '--overage-billed');
    assert.deepEqual(Object.keys(billed), ['team_id', 'subscription', 'spending_cap_cents', 'usage']);
    assert.equal(billed.team_id, paid.team.id);
    assert.equal(billed.subscription, 'active');
    assert.equal(billed.usage.overage_blocked_reason, 'billed_this_period');
    // Each state below outranks billed_this_period (still set).
    const expected = { none: 'no_subscription', past_due: 'past_due', cancel_scheduled: 'cancel_scheduled' };
    for (const [subscription, blocked] of Object.entries(expected)) {
      const shown = await billing('set-billing', paid.team.id, '--subscription', subscription);
      assert.equal(shown.subscription, subscription);
      assert.equal(shown.usage.overage_blocked_reason, blocked);
      assert.deepEqual(shown.usage, await h.usage(paid.live));
    }
  });

  it('sets and removes the spending cap, refusing unclear input with one line and exit code 2', async () => {
    const t = await h.server.team('growth');
    const capped = await billing('set-billing', t.team.id, '--spending-cap-cents', '500');
    assert.equal(capped.spending_cap_cents, 500);
    assert.equal(capped.usage.spending_cap_cents, 500);
    assert.equal((await h.usage(t.live)).spending_cap_cents, 500);
    const uncapped = await billing('set-billing', t.team.id, '--no-spending-cap');
    assert.equal(uncapped.spending_cap_cents, null);
    // (Each CLI run costs seconds on a loaded machine: two of the refusals.)
    for (const args of [
      ['--spending-cap-cents', '12.5'],
      ['--spending-cap-cents', '7', '--no-spending-cap'],
    ]) {
      const failed = await h.quireFails('team', 'set-billing', t.team.id, ...args);
      assert.equal(failed.code, 2, args.join(' '));
      assert.equal(failed.stderr.trim().split('\n').length, 1, failed.stderr);
    }
  });

  it('counts included documents, then overage at exact cents, then stops at the spending cap', async () => {
    const t = await h.server.team('starter'); // 3 included, 7 cents a document beyond them
    await billing('set-billing', t.team.id, '--spending-cap-cents', '15');
    const replayed = { 'idempotency-key': 'first-invoice' };
    assert.equal((await h.render(t.live, replayed)).status, 200);
    assert.equal((await h.render(t.live, replayed)).status, 200, 'an idempotent replay');
    assert.equal((await h.usage(t.live)).docs_used, 1, 'the replay did not count');
    for (let i = 0; i < 2; i++) assert.equal((await h.render(t.live)).status, 200);
    assert.deepEqual(pick(await h.usage(t.live)), [3, 3, 0, 0]);
    assert.equal((await h.render(t.live)).status, 200, 'overage 1: 7 cents');
    assert.equal((await h.render(t.live)).status, 200, 'overage 2: 14 cents');
    assert.deepEqual(await h.render(t.live), { status: 402, code: 'spending_cap_reached' }, '21 > 15');
    const usage = await h.usage(t.live);
    assert.deepEqual(pick(usage), [5, 3, 2, 14]);
    assert.equal(usage.spending_cap_cents, 15);
    assert.equal(usage.overage_blocked_reason, null);

    // Test keys render at any point, see the same numbers and never count.
    const test = await api(h.server.base, 'POST', '/v1/pdf', { key: t.test, body: { html: '<p>t</p>' } });
    assert.equal(test.status, 200);
    assert.deepEqual(await h.usage(t.test), usage);

    await billing('set-billing', t.team.id, '--spending-cap-cents', '21');
    assert.equal((await h.render(t.live)).status, 200, 'overage 3: exactly the cap');
    assert.deepEqual(await h.render(t.live), { status: 402, code: 'spending_cap_reached' });
    assert.deepEqual(pick(await h.usage(t.live)), [6, 3, 3, 21]);

    await billing('set-billing', t.team.id, '--no-spending-cap', '--overage-billed');
    assert.deepEqual(await h.render(t.live), { status: 402, code: 'plan_limit_reached' });
    await billing('set-billing', t.team.id, '--subscription', 'past_due');
    assert.deepEqual(await h.render(t.live), { status: 402, code: 'plan_limit_reached' });
    assert.deepEqual(pick(await h.usage(t.live)), [6, 3, 3, 21]);
    const log = await api(h.server.base, 'GET', '/v1/documents', { key: t.live });
    assert.equal(log.json.data.filter((d: { test: boolean }) => !d.test).length, 6, 'refusals made none');
  });

  it('lets exactly 3 of 20 concurrent renders through when 3 documents are left', async () => {
    const t = await h.server.team('pro'); // 5 included
    await billing('set-billing', t.team.id, '--subscription', 'none');
    for (let i = 0; i < 2; i++) assert.equal((await h.render(t.live)).status, 200);
    const results = await Promise.all(Array.from({ length: 20 }, () => h.render(t.live)));
    assert.equal(results.filter((r) => r.status === 200).length, 3);
    assert.ok(results.every((r) => r.status === 200 || r.code === 'plan_limit_reached'));
    assert.equal((await h.usage(t.live)).docs_used, 5);
  });

  it('refuses a batch whole when its live documents do not all fit, and counts each succeeded item', async () => {
    const t = await h.server.team('pro'); // 5 included
    await billing('set-billing', t.team.id, '--subscription', 'none');
    const templateId = await createTemplate(h.server.base, t.live);
    const batch = (n: number) =>
      api(h.server.base, 'POST', '/v1/batches', {
        key: t.live,
        body: {
          template_id: templateId,
          items: Array.from({ length: n }, (_, i) => ({ data: { number: `${i}`, customer: { name: 'A' } } })),
        },
      });
    const over = await batch(6);
    assert.equal(over.status, 402, over.text);
    assert.equal(over.json.error.code, 'plan_limit_reached');
    assert.equal((await api(h.server.base, 'GET', '/v1/documents', { key: t.live })).json.data.length, 0);
    const fits = await batch(5);
    assert.equal(fits.status, 202, fits.text);
    const done = await waitForBatch(h.server.base, t.live, fits.json.id);
    assert.equal(done.counts.succeeded, 5);
    assert.equal((await h.usage(t.live)).docs_used, 5);
    assert.deepEqual(await h.render(t.live), { status: 402, code: 'plan_limit_reached' });
  });
});

/** docs_used, docs_included, overage_docs, overage_cost_cents. */
function pick(usage: Record<string, unknown>): unknown[] {
  return [usage.docs_used, usage.docs_included, usage.overage_docs, usage.overage_cost_cents];
}
