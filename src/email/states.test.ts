import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkStateTable } from '../../test/helpers/state-table.js';
import { EMAIL_STATUSES, FINAL_EMAIL_STATUSES, mayMove, movableFrom, TRANSITIONS } from './states.js';

describe('email delivery states', () => {
  it('the table is closed, reachable, and queueing and the send job move emails only through it', () => {
    checkStateTable({
      statuses: EMAIL_STATUSES,
      final: FINAL_EMAIL_STATUSES,
      transitions: TRANSITIONS,
      mayMove,
      movableFrom,
      writers: ['email/delivery.ts', 'email/send-job.ts'],
    });
  });

  it('only a queued email is sent or failed by its job', () => {
    for (const status of EMAIL_STATUSES) {
      assert.equal(mayMove('send', status), status === 'queued', status);
      assert.equal(mayMove('fail', status), status === 'queued', status);
    }
  });
});
