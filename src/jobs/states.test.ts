import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkStateTable } from '../../test/helpers/state-table.js';
import {
  FINISHED_STATES,
  JOB_STATES,
  type JobTransition,
  mayMove,
  movableFrom,
  OPEN_STATES,
  TRANSITIONS,
} from './states.js';

describe('job states', () => {
  it('the table is closed, reachable, and the queue makes every move through it', () => {
    checkStateTable({
      statuses: JOB_STATES,
      final: FINISHED_STATES,
      transitions: TRANSITIONS,
      mayMove,
      movableFrom,
      writers: ['jobs/queue.ts'],
    });
  });

  it('open and finished split the states; only a worker holding the lease moves a running job', () => {
    assert.deepEqual([...OPEN_STATES, ...FINISHED_STATES].sort(), [...JOB_STATES].sort());
    const fromRunning = (Object.keys(TRANSITIONS) as JobTransition[]).filter((n) => mayMove(n, 'running'));
    assert.deepEqual(fromRunning.sort(), ['drop', 'fail', 'heartbeat', 'reclaim', 'requeue', 'succeed']);
    assert.equal(mayMove('cancel', 'running'), false, 'a running job is left to its handler');
    assert.equal(mayMove('enqueue', null), true);
  });
});
