import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Algorithm, hash } from '@node-rs/argon2';
import { hashPassword, needsRehash } from './passwords.js';
import { ACCOUNT_DELAY, ADDRESS_DELAY, delayAfter } from './throttle.js';

describe('password throttle delays', () => {
  it('owes nothing for the free failures, then doubles from the base up to the cap', () => {
    assert.deepEqual(
      [0, 9, 10, 11, 12, 13].map((n) => delayAfter(n, ADDRESS_DELAY)),
      [0, 0, 1000, 2000, 4000, 8000],
    );
    assert.equal(delayAfter(20, ADDRESS_DELAY), 15 * 60 * 1000, 'the address cap: 15 minutes');
    assert.deepEqual(
      [9, 10, 11, 14, 15, 1_000_000].map((n) => delayAfter(n, ACCOUNT_DELAY)),
      [0, 250, 500, 4000, 5000, 5000],
    );
  });
});

describe('argon2 parameters', () => {
  it('asks for a rehash when any parameter differs from the pinned ones, or the hash is unreadable', async () => {
    assert.equal(needsRehash(await hashPassword('a password')), false);
    for (const options of [
      { memoryCost: 8192 },
      { timeCost: 3 },
      { parallelism: 2 },
      { algorithm: 1 as Algorithm },
    ])
      assert.equal(needsRehash(await hash('a password', options)), true, JSON.stringify(options));
    assert.equal(needsRehash('not a hash'), true);
  });
});
