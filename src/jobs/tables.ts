import type { Generated } from 'kysely';
import type { JobStatus } from './states.js';

/**
 * The durable job queue for all background work (renders, webhook deliveries, and later emails, batch items,
 * ZIP builds). A row is claimed by setting a lease; a worker that dies leaves the lease to expire and the job
 * is claimed again.
 */
export interface JobsTable {
  id: string;
  /** Which registered handler runs it, e.g. `render`, `webhook_delivery`. */
  kind: string;
  /**
   * The team whose background-work limits (open_jobs, test_jobs_per_day) the job counts against;
   * null for work the service does on its own account (webhook deliveries).
   */
  team_id: string | null;
  /** 1 for test-mode work (counted against test_jobs_per_day). */
  test: number;
  payload_json: string;
  status: JobStatus;
  /** Attempts started so far, a crashed one included (a deferral or a shutdown release does not count). */
  attempts: Generated<number>;
  /** This job's attempt limit; null = the limit its kind was registered with. */
  max_attempts: number | null;
  /** Deduplication: unique per kind while the row exists (finished rows too, until swept). */
  job_key: string | null;
  /** Jobs sharing a key run at most `concurrency_limit` at once, across processes (e.g. one webhook endpoint). */
  concurrency_key: string | null;
  concurrency_limit: number | null;
  /** Not claimed before this time (backoff, deferral). */
  run_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  /** The last failure or release as `code: message` (job-error.ts), or why the job was canceled. */
  last_error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface JobsTables {
  jobs: JobsTable;
}
