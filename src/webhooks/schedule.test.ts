import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildEnvelope, pdfEventData } from './events.js';
import { deliveryBackoff, MAX_ATTEMPTS, shouldDisable } from './schedule.js';

describe('retry schedule', () => {
  it('retries after 1 min, 5 min, 30 min, 2 h, 6 h, 7 h, 8 h and then stops: 8 attempts', () => {
    const minutes = [1, 2, 3, 4, 5, 6, 7].map((n) => deliveryBackoff(n) / 60_000);
    assert.deepEqual(minutes, [1, 5, 30, 120, 360, 420, 480]);
    assert.equal(MAX_ATTEMPTS, 8, 'the worker stops after the 8th attempt');
  });

  it('disables only after 24 hours of failures', () => {
    const since = new Date(Date.UTC(2026, 0, 1));
    assert.equal(shouldDisable(null, new Date(Date.UTC(2026, 0, 5))), false);
    assert.equal(shouldDisable(since, new Date(since.getTime() + 24 * 3_600_000 - 1)), false);
    assert.equal(shouldDisable(since, new Date(since.getTime() + 24 * 3_600_000)), true);
  });
});

describe('event envelope', () => {
  it('has an evt_ id, livemode, and test_event only on test events', () => {
    const now = new Date(Date.UTC(2026, 0, 1));
    const normal = buildEnvelope({ type: 'pdf.created', createdAt: now, livemode: true, data: {} });
    assert.match(normal.id, /^evt_[0-9a-f]{32}$/);
    assert.equal(normal.livemode, true);
    assert.equal('test_event' in normal, false);
    const test = buildEnvelope({
      type: 'pdf.created',
      createdAt: now,
      livemode: false,
      data: {},
      testEvent: true,
    });
    assert.equal(test.test_event, true);
    assert.equal(test.created_at, now.toISOString());
  });

  it('pdf data is the Document plus filename, metadata, warnings, blocked_resources and batch_id', () => {
    const data = pdfEventData(
      { id: 'd1', status: 'failed', error_code: null },
      { filename: 'a.pdf', metadata: { k: 1 }, batchId: null, errorMessage: 'plan limit' },
    );
    assert.deepEqual(data, {
      id: 'd1',
      status: 'failed',
      error_code: null,
      filename: 'a.pdf',
      metadata: { k: 1 },
      warnings: [],
      blocked_resources: [],
      batch_id: null,
      error_message: 'plan limit',
    });
  });
});
