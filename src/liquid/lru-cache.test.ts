import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LruCache } from './lru-cache.js';

describe('LruCache', () => {
  it('keeps at most its size, dropping the least recently used', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('a'), 1);
    cache.set('c', 3);
    assert.equal(cache.size, 2);
    assert.equal(cache.has('b'), false);
    assert.deepEqual([cache.get('a'), cache.get('c')], [1, 3]);
  });

  it('getOrSet makes a value once and stores nothing when making fails', () => {
    const cache = new LruCache<string, number>(3);
    let made = 0;
    const make = () => {
      made += 1;
      return 7;
    };
    assert.equal(cache.getOrSet('k', make), 7);
    assert.equal(cache.getOrSet('k', make), 7);
    assert.equal(made, 1);
    assert.throws(() =>
      cache.getOrSet('bad', () => {
        throw new Error('no');
      }),
    );
    assert.equal(cache.has('bad'), false);
  });

  it('refuses a size below 1', () => {
    assert.throws(() => new LruCache(0), RangeError);
  });
});
