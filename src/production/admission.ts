import { statfsSync } from 'node:fs';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';

/**
 * When the service is too busy to take a document (spec: service_busy, 503): too many direct requests
 * between acceptance and rendering, or too little disk left to store files.
 */
export interface Admission {
  /** Counts one document into preparation; call the returned function once it starts rendering (or fails). */
  enterPreparation(): () => void;
  /** True while storing is paused for low disk: files that must be stored are refused. */
  storingPaused(): boolean;
}

const DISK_CHECK_INTERVAL_MS = 5_000;

export function createAdmission(options: {
  clock: Clock;
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
  return {
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
