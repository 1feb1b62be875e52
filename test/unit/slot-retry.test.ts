import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSlotBusy, retryWhileSlotsBusy } from '../../web/src/slot-retry.js';

const busy = { code: 'rate_limited', details: { reason: 'concurrency', limit: 3 } };
const perMinute = { code: 'rate_limited', details: { reason: 'per_minute' } };

/** Answers with the given outcomes in turn, counting calls. */
function scripted(outcomes: unknown[]) {
  let calls = 0;
  const attempt = async () => {
    const outcome = outcomes[Math.min(calls++, outcomes.length - 1)];
    if (outcome instanceof Error || (typeof outcome === 'object' && outcome !== null && 'code' in outcome)) {
      throw outcome;
    }
    return outcome;
  };
  return { attempt, calls: () => calls };
}

const noSleep = async () => {};

/** The editor preview's retry when the team's render slots are all taken (dashboard, pure logic). */
describe('retryWhileSlotsBusy', () => {
  it('tells a full-slots refusal from other errors', () => {
    assert.equal(isSlotBusy(busy), true);
    assert.equal(isSlotBusy(perMinute), false);
    assert.equal(isSlotBusy({ code: 'template_render_error' }), false);
    assert.equal(isSlotBusy(null), false);
    assert.equal(isSlotBusy('rate_limited'), false);
  });

  it('asks again after each full-slots refusal and returns the answer', async () => {
    const waits: number[] = [];
    const run = scripted([busy, busy, 'pages']);
    const answer = await retryWhileSlotsBusy(run.attempt, {
      stillWanted: () => true,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    assert.equal(answer, 'pages');
    assert.equal(run.calls(), 3);
    assert.deepEqual(waits, [1_000, 1_000], "the spec's Retry-After of 1 s between tries");
  });

  it('does not retry any other error', async () => {
    const run = scripted([perMinute, 'pages']);
    await assert.rejects(
      retryWhileSlotsBusy(run.attempt, { stillWanted: () => true, sleep: noSleep }),
      (err) => {
        assert.equal(err, perMinute);
        return true;
      },
    );
    assert.equal(run.calls(), 1);
  });

  it('gives the refusal up after the allowed attempts', async () => {
    const run = scripted([busy]);
    await assert.rejects(
      retryWhileSlotsBusy(run.attempt, { stillWanted: () => true, attempts: 4, sleep: noSleep }),
      (err) => err === busy,
    );
    assert.equal(run.calls(), 4);
  });

  it('stops asking once a newer request replaced this one', async () => {
    let wanted = true;
    const run = scripted([busy, 'pages']);
    await assert.rejects(
      retryWhileSlotsBusy(run.attempt, {
        stillWanted: () => wanted,
        sleep: async () => {
          wanted = false;
        },
      }),
      (err) => err === busy,
    );
    assert.equal(run.calls(), 1, 'no second request for an answer nobody will show');
  });
});
