import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../shared/clock.js';
import { createAdmission } from './admission.js';

describe('admission: service_busy for too many documents in preparation or a full disk', () => {
  it('refuses preparation beyond the bound with service_busy and Retry-After, and admits again after leaving', () => {
    const admission = createAdmission({
      clock: new ManualClock(),
      maxPreparing: 2,
      dataDir: '.',
      minFreeBytes: 0,
    });
    const first = admission.enterPreparation();
    const second = admission.enterPreparation();
    assert.throws(
      () => admission.enterPreparation(),
      (err: { code: string; headers?: Record<string, string> }) => {
        assert.equal(err.code, 'service_busy');
        assert.equal(err.headers?.['retry-after'], '1');
        return true;
      },
    );
    first();
    first(); // leaving twice counts once
    const third = admission.enterPreparation();
    assert.throws(() => admission.enterPreparation(), { code: 'service_busy' });
    second();
    third();
  });

  it('pauses storing below the free-space threshold, checking the disk at most every 5 seconds', () => {
    const clock = new ManualClock();
    let free = 10 * 1024 * 1024;
    let checks = 0;
    const admission = createAdmission({
      clock,
      maxPreparing: 1,
      dataDir: '.',
      minFreeBytes: 5 * 1024 * 1024,
      freeBytes: () => {
        checks += 1;
        return free;
      },
    });
    assert.equal(admission.storingPaused(), false);
    free = 1024;
    assert.equal(admission.storingPaused(), false, 'the last answer is kept for 5 s');
    clock.advance(5_000);
    assert.equal(admission.storingPaused(), true);
    assert.equal(checks, 2);
  });
});
