import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import type { JobError } from './job-error.js';
import type { ClaimedJob, Commit } from './queue.js';

/**
 * What a handler reports; the worker turns it into the job's next state. Retrying is decided only by the
 * worker, from the kind's backoff and the job's attempt limit — handlers say whether a failure is worth
 * another attempt, never when.
 */
export type JobOutcome =
  /** Done; `commit` runs in the transaction that marks the job succeeded. */
  | { kind: 'succeeded'; commit?: Commit }
  /**
   * This attempt failed. `retryable`: another attempt may help (the worker retries while attempts are left).
   * `commit` runs in the transaction that requeues or fails the job and learns which (`retryAt` null = final).
   */
  | {
      kind: 'failed';
      error: JobError;
      retryable: boolean;
      commit?: (trx: Db, next: NextAttempt) => Promise<void>;
    }
  /** Nothing to do any more (e.g. the work was withdrawn meanwhile); `commit` as for succeeded. */
  | { kind: 'canceled'; reason: string; commit?: Commit }
  /** Not started (e.g. no free render slot): wait `delayMs`; the attempt does not count. */
  | { kind: 'defer'; delayMs: number };

export interface NextAttempt {
  /** When the job runs again, or null when this failure is final. */
  retryAt: Date | null;
}

export interface JobContext {
  db: Db;
  clock: Clock;
  /** Aborted when the lease is lost or the workers stop. */
  signal: AbortSignal;
  /**
   * Attempts after this one (0: this is the last). For handlers that must record a failure themselves when
   * no retry follows; when a retry happens is still the worker's decision.
   */
  attemptsLeft: number;
}

/** Runs one attempt; a kind's handler gets its payload typed `P` (define-kind.ts checks it first). */
export type JobHandler<P = unknown> = (job: ClaimedJob<P>, ctx: JobContext) => Promise<JobOutcome>;

/** Records a job's final failure where users see it (see JobKindOptions.abandon). */
export type AbandonJob<P = unknown> = (trx: Db, job: ClaimedJob<P>, error: JobError) => Promise<void>;

export interface JobKindOptions {
  /** Attempts in all, the first included, unless the job carries its own limit. */
  maxAttempts: number;
  /** The wait after failed attempt number `attempt` (1-based) before the next one. */
  backoff: (attempt: number) => number;
  /**
   * Runs in the transaction that fails a job for good without a record of its own: its attempts were used
   * up by workers that died during them, or its last attempt threw (or failed without a `commit`). Records
   * the failure where users see it (document status, delivery log).
   */
  abandon?: AbandonJob;
}

/**
 * A job kind as its capability declares it: its name, handler, retry policy and the pool that runs it
 * (app.ts registers every capability's kinds and splits the pools by this declaration).
 */
export interface JobDefinition {
  kind: string;
  /** `heavy`: runs only on the render workers (QUIRE_WORKERS); `light`: in every process. */
  pool: 'heavy' | 'light';
  handler: JobHandler;
  options: JobKindOptions;
}

export interface RegisteredKind {
  handler: JobHandler;
  options: JobKindOptions;
}

/** Job kind → handler and retry policy. Capabilities declare theirs (JobDefinition); app.ts registers them. */
export class JobRegistry {
  private readonly kinds = new Map<string, RegisteredKind>();

  register(kind: string, handler: JobHandler, options: JobKindOptions): void {
    if (this.kinds.has(kind)) throw new Error(`job kind "${kind}" already registered`);
    if (!Number.isInteger(options.maxAttempts) || options.maxAttempts < 1)
      throw new Error(`job kind "${kind}": maxAttempts must be a positive integer`);
    this.kinds.set(kind, { handler, options });
  }

  get(kind: string): RegisteredKind | undefined {
    return this.kinds.get(kind);
  }

  kindNames(): string[] {
    return [...this.kinds.keys()];
  }
}

/** A backoff from a table of waits: wait `delaysMs[attempt - 1]`, the last entry once the table runs out. */
export function backoffTable(delaysMs: readonly number[]): (attempt: number) => number {
  if (delaysMs.length === 0) throw new Error('backoffTable needs at least one delay');
  return (attempt) => delaysMs[Math.min(Math.max(attempt, 1), delaysMs.length) - 1] as number;
}
