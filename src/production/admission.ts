import { statfsSync } from 'node:fs';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { reserveLiveDocuments } from './plan-limits.js';
import type { Caller, DeliveryPort, UsagePort } from './ports.js';
import { assertStorageAvailable, type StorageLedger, type StoragePolicy } from './storage-policy.js';

/** What one admission asks for: one document (POST /pdf, sync or async) or all of a batch's at once. */
export interface AdmissionRequest {
  caller: Caller;
  test: boolean;
  /** Documents being admitted: the live ones reserve their count now (a batch's all or none). */
  count: number;
  /** How the files are kept: `required` refuses now when storing is paused or the storage is full. */
  storage: StoragePolicy;
  /** Every address the documents will email (deliver.email.to): email_not_verified, email_limit_reached. */
  emails: readonly string[];
  /**
   * The documents' creation time, whose month their reservation is held in and later settled in (queued
   * documents are counted in the period of their `created_at`); default now.
   */
  at?: Date;
}

/** An admitted request: the period its live documents reserved in (null: test, nothing reserved). */
export interface Admitted {
  period: string | null;
  /** Gives the reservation back (the documents will not be recorded); at most once. */
  release(): Promise<void>;
}

/**
 * When the service is too busy to take a document (spec: service_busy, 503): too many direct requests
 * between acceptance and rendering, or too little disk left to store files; and the one admission step
 * every document passes before anything is rendered or counted (spec: plan and storage refusals come first).
 */
export interface Admission {
  /**
   * The one admission step of direct, async and bulk requests: storing paused (service_busy), the email
   * budget, the storage quota (storage_limit_reached), then the plan's documents and the spending cap
   * (plan_limit_reached, spending_cap_reached), reserved last so no refusal leaves a reservation behind.
   */
  admit(request: AdmissionRequest): Promise<Admitted>;
  /**
   * The same refusals again when a queued document starts (storage or the email budget may have run out
   * while it waited; spec: a background PDF that fails before rendering has no record). Its count was
   * reserved when it was admitted: nothing is reserved again.
   */
  recheck(request: Omit<AdmissionRequest, 'count'>): Promise<void>;
  /** Counts one document into preparation; call the returned function once it starts rendering (or fails). */
  enterPreparation(): () => void;
  /** True while storing is paused for low disk: files that must be stored are refused. */
  storingPaused(): boolean;
}

const DISK_CHECK_INTERVAL_MS = 5_000;

export function createAdmission(options: {
  clock: Clock;
  /** The usage ledger's reservations (plan documents, spending cap). */
  usage: UsagePort;
  /** Stored bytes per team, for the storage quota. */
  ledger: StorageLedger;
  /** deliver.email's checks. */
  delivery: Pick<DeliveryPort, 'assertAllowed'>;
  maxPreparing: number;
  dataDir: string;
  minFreeBytes: number;
  /** Free bytes on the data directory's file system (a seam for tests). */
  freeBytes?: (dir: string) => number;
}): Admission {
  const freeBytes = options.freeBytes ?? freeBytesOf;
  let preparing = 0;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let paused = false;
  const admission: Admission = {
    async admit(request) {
      await admission.recheck(request);
      const { caller, count } = request;
      const period = await reserveLiveDocuments(options.usage, caller, {
        test: request.test,
        count,
        at: request.at ?? options.clock.now(),
      });
      let released = period === null;
      return {
        period,
        async release() {
          if (released || period === null) return;
          released = true;
          await options.usage.release(caller.teamId, period, count);
        },
      };
    },
    async recheck(request) {
      const { caller } = request;
      if (request.storage === 'required' && admission.storingPaused()) throw storingPausedError();
      if (request.emails.length > 0)
        await options.delivery.assertAllowed(
          { teamId: caller.teamId, emailsPerDay: caller.plan.emails_per_day },
          request.emails,
        );
      if (request.storage === 'required') await assertStorageAvailable(options.ledger, caller, request.test);
    },
    enterPreparation() {
      if (preparing >= options.maxPreparing) {
        throw new AppError(
          'service_busy',
          `More than ${options.maxPreparing} documents are being prepared at once; retry shortly.`,
          undefined,
          { 'retry-after': '1' },
        );
      }
      preparing += 1;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        preparing -= 1;
      };
    },
    storingPaused() {
      const now = options.clock.now().getTime();
      // statfs is a system call: the answer is kept a few seconds, which is plenty for a space threshold.
      if (now - checkedAt >= DISK_CHECK_INTERVAL_MS) {
        checkedAt = now;
        paused = freeBytes(options.dataDir) < options.minFreeBytes;
      }
      return paused;
    },
  };
  return admission;
}

function freeBytesOf(dir: string): number {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
}

/** The refusal for a file that must be stored while storing is paused. */
export function storingPausedError(): AppError {
  return new AppError(
    'service_busy',
    'Storing files is paused because the server is low on disk space; binary responses still work.',
    undefined,
    { 'retry-after': '30' },
  );
}
