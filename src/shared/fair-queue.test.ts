import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FairQueue } from './fair-queue.js';

/** Serves the queue like the pool does: each taken waiter starts on a page. */
function serve(queue: FairQueue<string>, times: number): string[] {
  const order: string[] = [];
  for (let i = 0; i < times; i++) {
    const next = queue.next();
    if (!next) break;
    queue.started(next.tenant);
    order.push(next.item);
  }
  return order;
}

describe('FairQueue', () => {
  it('a tenant with fewer pages in use goes first, however late it queued', () => {
    const queue = new FairQueue<string>();
    queue.started('a');
    queue.started('a');
    for (const item of ['a1', 'a2', 'a3']) queue.push('a', item);
    queue.push('b', 'b1');
    assert.deepEqual(serve(queue, 1), ['b1']);
  });

  it('with equal pages in use, the tenant served longest ago goes first; FIFO within a tenant', () => {
    const queue = new FairQueue<string>();
    queue.started('a'); // a's first render took the free page
    for (const item of ['a1', 'a2']) queue.push('a', item);
    queue.push('b', 'b1');
    queue.push('b', 'b2');
    queue.finished('a');
    const first = queue.next();
    assert.equal(first?.item, 'b1');
    queue.started('b');
    queue.finished('b');
    assert.deepEqual(serve(queue, 3), ['a1', 'b2', 'a2']);
    assert.equal(queue.size, 0);
  });

  it('a removed waiter is never served; drain empties the queue', () => {
    const queue = new FairQueue<string>();
    queue.push('a', 'a1');
    queue.push('a', 'a2');
    assert.equal(queue.remove('a', 'a1'), true);
    assert.equal(queue.remove('a', 'a1'), false);
    assert.equal(queue.size, 1);
    assert.deepEqual(queue.drain(), ['a2']);
    assert.equal(queue.next(), undefined);
  });
});
