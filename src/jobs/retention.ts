import type { Clock } from '../shared/clock.js';
import { type Db, deleteOlderThan } from '../storage/index.js';
import { FINISHED_STATES } from './states.js';

/**
 * Finished jobs are kept two days: long enough for the 24-hour test_jobs_per_day count (spec: Limits),
 * which counts queued jobs by creation time, and for job keys to deduplicate for at least a day.
 */
export const FINISHED_JOB_RETENTION_MS = 2 * 24 * 60 * 60 * 1000;

export async function sweepFinishedJobs(db: Db, clock: Clock): Promise<number> {
  const finished = db.deleteFrom('jobs').where('status', 'in', FINISHED_STATES);
  return deleteOlderThan(finished, 'created_at', FINISHED_JOB_RETENTION_MS, clock.now());
}
