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

  it('refuses a size below 1, and a byte budget without a size function', () => {
    assert.throws(() => new LruCache(0), RangeError);
    assert.throws(() => new LruCache({ maxEntries: 2, maxBytes: 10 }), RangeError);
  });

  it('with a byte budget, evicts the least recently used until the estimated bytes fit', () => {
    const cache = new LruCache<string, string>({
      maxEntries: 100,
      maxBytes: 10,
      sizeOf: (_key, value) => value.length,
    });
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    assert.equal(cache.get('a'), 'aaaa');
    cache.set('c', 'cccc');
    assert.deepEqual([cache.has('a'), cache.has('b'), cache.has('c')], [true, false, true]);
    assert.equal(cache.bytes, 8);
    cache.set('a', 'a');
    assert.equal(cache.bytes, 5, 'replacing an entry counts its new size only');
    cache.delete('c');
    assert.equal(cache.bytes, 1);
  });

  it('never keeps a value larger than the whole byte budget, and keeps what it had', () => {
    const cache = new LruCache<string, string>({ maxEntries: 5, maxBytes: 10, sizeOf: (_k, v) => v.length });
    cache.set('small', 'xx');
    cache.set('huge', 'x'.repeat(11));
    assert.equal(cache.has('huge'), false);
    assert.equal(cache.get('small'), 'xx');
    assert.equal(cache.bytes, 2);
  });
});
