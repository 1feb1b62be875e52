import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { createAdmission } from './admission.js';
import type { Caller } from './ports.js';

/** The usage ledger, storage and email ports as admit() sees them, recording what it asked. */
function gates(options: { storedBytes?: number; documentsLeft?: number } = {}) {
  const asked: string[] = [];
  const reservedAt: Date[] = [];
  let left = options.documentsLeft ?? 10;
  return {
    asked,
    reservedAt,
    usage: {
      async reserve(_teamId: string, count: number, at: Date) {
        asked.push(`reserve ${count}`);
        if (count > left) throw new AppError('plan_limit_reached', 'The plan allows no more documents.');
        left -= count;
        reservedAt.push(at);
        return { period: '2026-11' };
      },
      async release(_teamId: string, period: string, count = 1) {
        asked.push(`release ${count} in ${period}`);
        left += count;
      },
    },
    ledger: {
      async storedBytes() {
        asked.push('storage');
        return options.storedBytes ?? 0;
      },
    },
    delivery: {
      async assertAllowed(_budget: unknown, addresses: readonly string[]) {
        asked.push(`emails ${addresses.join(',')}`);
      },
    },
  };
}

/** An admission over `ports` with one request in preparation at a time and no disk check. */
function plainAdmission(ports: ReturnType<typeof gates>, clock = new ManualClock()) {
  return createAdmission({ clock, ...ports, maxPreparing: 1, dataDir: '.', minFreeBytes: 0 });
}

const CALLER = {
  teamId: 'team',
  plan: { emails_per_day: 100, storage_bytes: 1000 } as Caller['plan'],
};

describe('admission: service_busy for too many documents in preparation or a full disk', () => {
  it('refuses preparation beyond the bound with service_busy and Retry-After, and admits again after leaving', () => {
    const admission = createAdmission({
      clock: new ManualClock(),
      ...gates(),
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
      ...gates(),
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

  it('admit: email budget, storage, then the live documents reserved all at once; release gives them back once', async () => {
    const ports = gates({ documentsLeft: 3 });
    const admission = plainAdmission(ports);
    const request = {
      caller: CALLER,
      test: false,
      storage: 'required' as const,
      emails: ['a@x.test', 'b@x.test'],
    };
    const admitted = await admission.admit({ ...request, count: 3 });
    assert.equal(admitted.period, '2026-11');
    assert.deepEqual(ports.asked, ['emails a@x.test,b@x.test', 'storage', 'reserve 3']);
    await assert.rejects(admission.admit({ ...request, count: 1 }), { code: 'plan_limit_reached' });
    await admitted.release();
    await admitted.release();
    assert.deepEqual(ports.asked.slice(-1), ['release 3 in 2026-11'], 'released once');
    assert.equal((await admission.admit({ ...request, count: 3 })).period, '2026-11');
  });

  it("admit: reserves at the documents' creation time when given (their usage period), else now", async () => {
    const ports = gates();
    const clock = new ManualClock(Date.UTC(2026, 11, 1, 0, 0, 1));
    const admission = plainAdmission(ports, clock);
    const request = { caller: CALLER, test: false, count: 1, storage: 'required' as const, emails: [] };
    const createdAt = new Date(Date.UTC(2026, 10, 30, 23, 59, 59));
    await admission.admit({ ...request, at: createdAt });
    await admission.admit(request);
    assert.deepEqual(ports.reservedAt, [createdAt, clock.now()]);
  });

  it('admit: a full storage quota refuses before anything is reserved; test documents reserve nothing', async () => {
    const ports = gates({ storedBytes: 1001 });
    const admission = plainAdmission(ports);
    const live = { caller: CALLER, test: false, count: 1, emails: [] };
    await assert.rejects(admission.admit({ ...live, storage: 'required' }), {
      code: 'storage_limit_reached',
    });
    assert.deepEqual(ports.asked, ['storage']);
    assert.equal((await admission.admit({ ...live, storage: 'if_room' })).period, '2026-11');
    assert.equal((await admission.admit({ ...live, test: true, storage: 'never' })).period, null);
    assert.deepEqual(ports.asked, ['storage', 'reserve 1']);
  });
});
