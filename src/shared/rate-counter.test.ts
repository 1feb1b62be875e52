import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryRateCounter } from './rate-counter.js';

describe('fixed-window rate counter', () => {
  it('opens the window at the first request and resets after it', () => {
    const c = new MemoryRateCounter();
    const t0 = 1_000_000;
    assert.equal(c.hit('k', 2, 60_000, t0).remaining, 1);
    assert.equal(c.hit('k', 2, 60_000, t0 + 10_000).remaining, 0);
    const refused = c.hit('k', 2, 60_000, t0 + 59_000);
    assert.equal(refused.allowed, false);
    assert.equal(refused.resetSeconds, 1);
    const fresh = c.hit('k', 2, 60_000, t0 + 60_000);
    assert.equal(fresh.allowed, true);
    assert.equal(fresh.resetSeconds, 60);
  });
  it('keeps keys apart', () => {
    const c = new MemoryRateCounter();
    assert.equal(c.hit('a', 1, 60_000, 0).allowed, true);
    assert.equal(c.hit('b', 1, 60_000, 0).allowed, true);
    assert.equal(c.hit('a', 1, 60_000, 1).allowed, false);
  });
});
