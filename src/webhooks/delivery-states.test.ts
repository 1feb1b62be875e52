import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkStateTable } from '../../test/helpers/state-table.js';
import {
  DELIVERY_STATUSES,
  type DeliveryTransition,
  mayMove,
  movableFrom,
  TRANSITIONS,
} from './delivery-states.js';

describe('webhook delivery states', () => {
  it('the table is closed, reachable, and the outbox and the delivery log move deliveries only through it', () => {
    checkStateTable({
      statuses: DELIVERY_STATUSES,
      final: [],
      transitions: TRANSITIONS,
      mayMove,
      movableFrom,
      writers: ['webhooks/outbox.ts', 'webhooks/delivery-store.ts'],
    });
  });

  it('only a manual retry moves a finished delivery, and only to one more pending attempt', () => {
    for (const status of ['succeeded', 'failed'] as const) {
      const moves = (Object.keys(TRANSITIONS) as DeliveryTransition[]).filter((n) => mayMove(n, status));
      assert.deepEqual(moves, ['retry'], status);
    }
    assert.equal(mayMove('retry', 'pending'), false, 'two racing retries queue one attempt');
  });
});
