import type { Generated } from 'kysely';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/**
 * The durable job queue (spec: POST /pdf async; Limits, background work). A row is claimed by setting a
 * lease; a worker that dies leaves the lease to expire and the job is claimed again.
 */
export interface JobsTable {
  id: string;
  /** Which handler runs it, e.g. `render`. */
  type: string;
  team_id: string | null;
  /** 1 for test-mode work (counted against test_jobs_per_day). */
  test: number;
  payload_json: string;
  status: JobStatus;
  /** Attempts started so far (a deferral does not count). */
  attempts: Generated<number>;
  /** Not claimed before this time (backoff). */
  run_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface JobsTables {
  jobs: JobsTable;
}
