import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { FINISHED_STATES } from './tables.js';

/**
 * Finished jobs are kept two days: long enough for the 24-hour test_jobs_per_day count (spec: Limits),
 * which counts queued jobs by creation time, and for job keys to deduplicate for at least a day.
 */
export const FINISHED_JOB_RETENTION_MS = 2 * 24 * 60 * 60 * 1000;

export async function sweepFinishedJobs(db: Db, clock: Clock): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - FINISHED_JOB_RETENTION_MS).toISOString();
  const result = await db
    .deleteFrom('jobs')
    .where('status', 'in', FINISHED_STATES)
    .where('created_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
