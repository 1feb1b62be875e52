import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadPlans } from './plans.js';
import {
  type BillingState,
  computeUsage,
  documentAllowance,
  overageBlockedReason,
  type PlanChange,
  parsePeriod,
  proratedIncluded,
} from './usage.js';

const plans = loadPlans(null);
const april = parsePeriod('2026-04') as NonNullable<ReturnType<typeof parsePeriod>>;
const at = (iso: string) => new Date(iso);
const active: BillingState = { subscription: 'active', spendingCapCents: null, overageBilledPeriod: null };

describe('usage numbers', () => {
  it('names monthly UTC periods and refuses other names', () => {
    assert.deepEqual(
      [april.start.toISOString(), april.end.toISOString()],
      ['2026-04-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z'],
    );
    assert.equal(parsePeriod('2026-12')?.end.toISOString(), '2027-01-01T00:00:00.000Z');
    for (const bad of ['2026-13', '2026-4', '26-04', '2026-04-01', '']) assert.equal(parsePeriod(bad), null);
  });

  it('prorates included documents by time between plan changes, rounding half up', () => {
    const cases: [PlanChange[], number][] = [
      [[{ plan: 'growth', at: at('2026-01-01T00:00:00Z') }], 10_000],
      // Created mid-period: its first plan covers the period from the start.
      [[{ plan: 'starter', at: at('2026-04-20T00:00:00Z') }], 2_000],
      [
        [
          { plan: 'growth', at: at('2026-01-01T00:00:00Z') },
          { plan: 'scale', at: at('2026-04-11T00:00:00Z') },
        ],
        136_667,
      ],
      [
        [
          { plan: 'starter', at: at('2026-01-01T00:00:00Z') },
          { plan: 'free', at: at('2026-04-16T00:00:00Z') },
        ],
        1_050,
      ],
    ];
    for (const [history, expected] of cases) assert.equal(proratedIncluded(plans, history, april), expected);
  });

  it('orders overage_blocked_reason: free, cancel_scheduled, past_due, no_subscription, billed_this_period', () => {
    const billed = { ...active, overageBilledPeriod: '2026-04' };
    const cases: [string, BillingState, string | null][] = [
      ['free', { ...billed, subscription: 'past_due' }, 'free'],
      ['growth', { ...billed, subscription: 'cancel_scheduled' }, 'cancel_scheduled'],
      ['growth', { ...billed, subscription: 'past_due' }, 'past_due'],
      ['growth', { ...billed, subscription: 'none' }, 'no_subscription'],
      ['growth', billed, 'billed_this_period'],
      ['growth', { ...active, overageBilledPeriod: '2026-03' }, null],
    ];
    for (const [plan, billing, expected] of cases)
      assert.equal(
        overageBlockedReason(plans[plan as 'growth'], billing, april),
        expected,
        `${plan} ${billing.subscription}`,
      );
    const noPrice = { ...plans.growth, overage_cents_per_doc: null };
    assert.equal(overageBlockedReason(noPrice, active, april), 'no_subscription');
  });

  it('computes overage cost and the allowance the cap leaves', () => {
    const usage = computeUsage({
      plans,
      period: april,
      asOf: at('2026-04-20T00:00:00Z'),
      history: [{ plan: 'starter', at: at('2026-02-01T00:00:00Z') }],
      teamCreatedAt: at('2026-02-01T00:00:00Z'),
      billing: { ...active, spendingCapCents: 100 },
      used: 4_510,
      previousUsed: 1_500,
    });
    // March left 500 unused: 2,000 + 500 included; 2,010 beyond at 3 cents.
    assert.deepEqual(
      [usage.rollover_docs, usage.docs_included, usage.overage_docs, usage.overage_cost_cents],
      [500, 2_500, 2_010, 6_030],
    );
    assert.equal(documentAllowance(usage, plans.starter), 2_500 + 33);
    assert.equal(documentAllowance({ ...usage, spending_cap_cents: null }, plans.starter), Infinity);
    assert.equal(documentAllowance({ ...usage, overage_blocked_reason: 'past_due' }, plans.starter), 2_500);
  });
});
