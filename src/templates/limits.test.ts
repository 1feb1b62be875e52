import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadPlans } from '../accounts/plans.js';
import { AppError } from '../shared/errors.js';
import { MemoryRateCounter } from '../shared/rate-counter.js';
import { assertTemplateQuota, hitChangeBudget } from './limits.js';

const plans = loadPlans(null);

function codeOf(fn: () => void): { code: string; details: unknown; headers: Record<string, string> } | null {
  try {
    fn();
    return null;
  } catch (err) {
    assert.ok(err instanceof AppError);
    return { code: err.code, details: err.details, headers: err.headers };
  }
}

async function asyncCodeOf(
  fn: () => Promise<void>,
): Promise<{ code: string; details: unknown; headers: Record<string, string> } | null> {
  try {
    await fn();
    return null;
  } catch (err) {
    assert.ok(err instanceof AppError);
    return { code: err.code, details: err.details, headers: err.headers };
  }
}

describe('assertTemplateQuota (spec: Limits, templates per team)', () => {
  it('allows up to the plan number of live templates', () => {
    assert.equal(
      codeOf(() => assertTemplateQuota({ live: 4, all: 4 }, plans.free)),
      null,
    );
    assert.deepEqual(
      codeOf(() => assertTemplateQuota({ live: 5, all: 5 }, plans.free)),
      {
        code: 'plan_limit_reached',
        details: { limit: 'templates', max: 5 },
        headers: {},
      },
    );
  });
  it('caps all templates including deleted ones at the plan number plus 100', () => {
    assert.equal(
      codeOf(() => assertTemplateQuota({ live: 0, all: 104 }, plans.free)),
      null,
    );
    assert.deepEqual(codeOf(() => assertTemplateQuota({ live: 0, all: 105 }, plans.free))?.details, {
      limit: 'templates_including_deleted',
      max: 105,
    });
  });
});

describe('hitChangeBudget', () => {
  it('allows 60 per minute per team, then rate_limited with Retry-After', async () => {
    const rate = new MemoryRateCounter();
    for (let i = 0; i < 60; i++) await hitChangeBudget(rate, 't1', 1_000);
    const refused = await asyncCodeOf(() => hitChangeBudget(rate, 't1', 31_000));
    assert.equal(refused?.code, 'rate_limited');
    assert.equal(refused?.headers['retry-after'], '30');
    assert.equal(await asyncCodeOf(() => hitChangeBudget(rate, 't2', 31_000)), null);
    assert.equal(await asyncCodeOf(() => hitChangeBudget(rate, 't1', 61_000)), null);
  });
});
