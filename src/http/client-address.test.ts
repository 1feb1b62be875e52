import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ipBudgetKey } from './client-address.js';

describe('per-IP budget key', () => {
  it('groups IPv6 addresses by /64', () => {
    assert.equal(ipBudgetKey('2001:db8:1:2::1'), ipBudgetKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    assert.notEqual(ipBudgetKey('2001:db8:1:2::1'), ipBudgetKey('2001:db8:1:3::1'));
  });
  it('keeps IPv4 addresses apart and treats IPv4-mapped IPv6 as IPv4', () => {
    assert.notEqual(ipBudgetKey('10.0.0.1'), ipBudgetKey('10.0.0.2'));
    assert.equal(ipBudgetKey('::ffff:10.0.0.1'), ipBudgetKey('10.0.0.1'));
  });
});
