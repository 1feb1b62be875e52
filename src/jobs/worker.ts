import { hostname } from 'node:os';
import type { Clock } from '../shared/clock.js';
import { type Db, listen } from '../storage/index.js';
import { inSpan, spanEvent, withTraceparent } from '../telemetry/index.js';
import { type JobError, jobErrorText } from './job-error.js';
import { type ClaimedJob, claimJob, extendLease, finishJob, JOBS_CHANNEL, requeueJob } from './queue.js';
import { traceClaimed } from './queue-events.js';
import type { JobContext, JobHandler, JobOutcome, JobRegistry, RegisteredKind } from './registry.js';

/**
 * In-process workers, grouped in pools: each pool runs up to `concurrency` jobs of its kinds at once, keeps
 * every lease alive with a heartbeat while the handler runs, and records the outcome guarded by the lease.
 * This is also the one place where retries are decided (the kind's backoff, the job's attempt limit).
 */
export interface PoolSpec {
  /** For logs, e.g. `render` or `light`. */
  name: string;
  kinds: readonly string[];
  /** Jobs of this pool running at once in this process (0: the pool does not run). */
  concurrency: number;
  /**
   * Jobs run beyond `concurrency` (when it is above 0): the next job is claimed and prepared while the
   * others run, so a render worker's Chromium page does not wait between documents for the claim, the
   * preparation and the previous document's store and record. Its render then waits for a page.
   */
  ahead?: number;
}

export interface WorkerOptions {
  db: Db;
  clock: Clock;
  registry: JobRegistry;
  pools: readonly PoolSpec[];
  /** A claimed job whose worker stops heart-beating is free again after this long. */
  leaseMs?: number;
  /** Sleep between polls when nothing is due (in-process enqueues call wake()). */
  pollMs?: number;
  log?: { error(obj: Record<string, unknown>, msg: string): void };
}

export interface Workers {
  /** Look for due jobs now (after an in-process enqueue was committed). */
  wake(): void;
  /** Resolves once no job runs in this process and the last look found nothing due (tests). */
  idle(): Promise<void>;
  /**
   * Resolves true once enqueues in other processes wake this one (PostgreSQL's LISTEN is open), false when
   * they never will (SQLite, no pools, or the listener failed: polling alone finds the jobs).
   */
  listening: Promise<boolean>;
  /**
   * Stops claiming and lets running jobs finish within `graceMs`. Jobs still running then are given back
   * (queued, due now, attempt not counted) so another process picks them up at once, and their handlers are
   * aborted.
   */
  stop(graceMs?: number): Promise<void>;
}

export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_POLL_MS = 1_000;
/** Below a container runtime's usual 30 s before it kills: the release must happen before that. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 25_000;
/** After the grace ends, how long aborted handlers get to return before the workers stop waiting. */
const ABORTED_RETURN_MS = 2_000;

export function startWorkers(options: WorkerOptions): Workers {
  for (const spec of options.pools) {
    for (const kind of spec.kinds) {
      if (!options.registry.get(kind))
        throw new Error(`pool "${spec.name}": job kind "${kind}" not registered`);
    }
  }
  const hard = new AbortController();
  const pools = options.pools
    .filter((spec) => spec.concurrency > 0)
    .map(
      (spec, i) =>
        new Pool(options, spec, `${hostname()}:${process.pid}:${i}:${randomSuffix()}`, hard.signal),
    );
  for (const pool of pools) pool.start();
  const wakeAll = () => {
    for (const pool of pools) pool.wake();
  };
  const unlisten = pools.length > 0 ? listenForEnqueues(options, wakeAll) : Promise.resolve(null);
  return {
    wake: wakeAll,
    idle: async () => {
      await Promise.all(pools.map((pool) => pool.idle()));
    },
    listening: unlisten.then((stop) => stop !== null),
    async stop(graceMs = DEFAULT_SHUTDOWN_GRACE_MS) {
      for (const pool of pools) pool.stopClaiming();
      await (await unlisten)?.();
      const finished = Promise.all(pools.map((pool) => pool.idle()));
      if (await settlesWithin(finished, graceMs)) return;
      hard.abort();
      await Promise.all(pools.map((pool) => pool.releaseRunning()));
      await settlesWithin(finished, ABORTED_RETURN_MS);
    },
  };
}

/**
 * On PostgreSQL, enqueues in any process wake this process's pools at once (LISTEN/NOTIFY); polling stays the
 * fallback (SQLite, a lost listen connection, jobs due later). Null when not listening.
 */
async function listenForEnqueues(
  options: WorkerOptions,
  wake: () => void,
): Promise<(() => Promise<void>) | null> {
  const onError = (err: unknown) =>
    options.log?.error({ err }, 'job notification listener failed; polling continues');
  try {
    return await listen(options.db, JOBS_CHANNEL, wake, onError);
  } catch (err) {
    onError(err);
    return null;
  }
}

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 10);
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Pool {
  private readonly running = new Map<Promise<void>, ClaimedJob>();
  /**
   * Teams whose last job here was deferred (every render slot of the team taken): how many of their jobs
   * ran here then (`cap`) and when the deferral ends (the clock's ms). Until then their jobs are claimed
   * only while fewer than `cap` run here, that is once one of them ended and freed its slot. Without it,
   * a pool with more places than a team has slots claimed the team's next job and put it back at every
   * turn (two writes each), while other teams' jobs waited behind it.
   */
  private readonly saturated = new Map<string, { cap: number; until: number }>();
  private readonly limit: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private stopped = false;
  private filling = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private claims = 0;

  constructor(
    private readonly options: WorkerOptions,
    private readonly spec: PoolSpec,
    private readonly owner: string,
    private readonly hard: AbortSignal,
  ) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.limit = spec.concurrency + (spec.ahead ?? 0);
  }

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      void this.fill().finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.pollMs);
      });
    };
    tick();
  }

  wake(): void {
    void this.fill();
  }

  /** Resolves once nothing runs and no claim is under way (task promises never reject: run() catches). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.filling) await Promise.race([...this.running.keys(), sleep(5)]);
  }

  stopClaiming(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Shutdown after the grace: running jobs go back to the queue, due at once, their attempt not counted. */
  async releaseRunning(): Promise<void> {
    await Promise.all(
      [...this.running.values()].map((job) =>
        releaseJob(this.options, job).catch((err: unknown) =>
          this.options.log?.error({ err, jobId: job.id }, 'could not release a job at shutdown'),
        ),
      ),
    );
  }

  /** Claims until the pool is full or nothing is due; a wake during a fill makes it look once more. */
  private async fill(): Promise<void> {
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = true;
    try {
      do {
        this.again = false;
        while (!this.stopped && this.running.size < this.limit) {
          const job = await claimJob(this.options.db, this.options.clock, {
            // One owner per claim: a job this pool lost and claimed again cannot be finished by the old run.
            owner: `${this.owner}:${++this.claims}`,
            leaseMs: this.leaseMs,
            kinds: this.spec.kinds,
            excludedTeams: this.saturatedTeams(),
          });
          if (!job) break;
          const task = this.run(job).then((outcome) => {
            this.running.delete(task);
            this.noteTeam(job, outcome);
            void this.fill();
          });
          this.running.set(task, job);
        }
      } while (this.again && !this.stopped);
    } catch (err) {
      this.options.log?.error({ err, pool: this.spec.name }, 'job worker error');
    } finally {
      this.filling = false;
    }
  }

  /** Teams whose slots are all taken (see `saturated`); the ones whose deferral ended are forgotten. */
  private saturatedTeams(): string[] {
    const now = this.options.clock.now().getTime();
    const teams: string[] = [];
    for (const [team, { cap, until }] of this.saturated) {
      if (until <= now) this.saturated.delete(team);
      else if (this.runningOf(team) >= cap) teams.push(team);
    }
    return teams;
  }

  private runningOf(teamId: string): number {
    let n = 0;
    for (const job of this.running.values()) if (job.teamId === teamId) n += 1;
    return n;
  }

  /** A deferred job (no free slot of its team) caps its team's jobs here at those still running. */
  private noteTeam(job: ClaimedJob, outcome: JobOutcome | null): void {
    if (job.teamId === null || outcome?.kind !== 'defer') return;
    const until = this.options.clock.now().getTime() + outcome.delayMs;
    this.saturated.set(job.teamId, { cap: this.runningOf(job.teamId), until });
  }

  /** Runs one claimed job; never rejects. Its handler's outcome, or null when there was none. */
  private async run(job: ClaimedJob): Promise<JobOutcome | null> {
    const registered = this.options.registry.get(job.kind);
    if (!registered) return null;
    const { db, clock } = this.options;
    const lease = new AbortController();
    const beat = setInterval(
      () => {
        extendLease(db, clock, job, this.leaseMs)
          .then((held) => {
            if (!held) lease.abort();
          })
          .catch(() => {});
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    const ctx = {
      db,
      clock,
      signal: AbortSignal.any([lease.signal, this.hard]),
      attemptsLeft: Math.max(0, (job.maxAttempts ?? registered.options.maxAttempts) - job.attempts),
    };
    try {
      return await inJobTrace(job, async () => {
        await traceClaimed(db, clock, job);
        return runAttempt(this.options, registered, job, ctx);
      });
    } catch (err) {
      this.options.log?.error({ err, jobId: job.id, kind: job.kind }, 'job worker error');
      return null;
    } finally {
      clearInterval(beat);
    }
  }
}

/** The attempt as a `quire.job <kind>` span in the trace it was queued in (a new trace without one). */
function inJobTrace<T>(job: ClaimedJob, work: () => Promise<T>): Promise<T> {
  const attributes = { 'quire.job.kind': job.kind, 'quire.job.attempt': job.attempts };
  return withTraceparent(job.traceparent, () => inSpan(`quire.job ${job.kind}`, attributes, work));
}

async function runAttempt(
  options: WorkerOptions,
  registered: RegisteredKind,
  job: ClaimedJob,
  ctx: JobContext,
): Promise<JobOutcome | null> {
  const maxAttempts = job.maxAttempts ?? registered.options.maxAttempts;
  if (job.attempts > maxAttempts) {
    // Only reachable when workers died during every attempt (a normal attempt ends before the limit).
    await abandon(options, registered, job, {
      code: 'worker_lost',
      message: 'attempts used up: the worker stopped during every attempt',
    });
    return null;
  }
  const outcome = await runHandler(registered.handler, job, ctx);
  spanEvent('quire.job.outcome', { outcome: outcome.kind, attempt: job.attempts });
  if (ctx.signal.aborted && outcome.kind !== 'succeeded') {
    // Interrupted by shutdown (or the lease is gone, and then nothing can be recorded anyway): not the job's fault.
    await releaseJob(options, job);
    return outcome;
  }
  await recordOutcome(options, registered, job, maxAttempts, outcome);
  return outcome;
}

async function runHandler(handler: JobHandler, job: ClaimedJob, ctx: JobContext): Promise<JobOutcome> {
  try {
    return await handler(job, ctx);
  } catch (err) {
    // Handlers turn expected failures into outcomes; anything thrown is a fault, worth another attempt.
    const message = err instanceof Error ? err.message : String(err);
    return { kind: 'failed', error: { code: 'internal_error', message }, retryable: true };
  }
}

async function recordOutcome(
  options: WorkerOptions,
  registered: RegisteredKind,
  job: ClaimedJob,
  maxAttempts: number,
  outcome: JobOutcome,
): Promise<void> {
  const { db, clock } = options;
  const now = clock.now().getTime();
  switch (outcome.kind) {
    case 'succeeded':
      await finishJob(db, clock, job, { status: 'succeeded', error: null }, outcome.commit);
      return;
    case 'canceled':
      await finishJob(db, clock, job, { status: 'canceled', error: outcome.reason }, outcome.commit);
      return;
    case 'defer':
      await requeueJob(db, clock, job, {
        runAt: new Date(now + outcome.delayMs),
        error: null,
        countAttempt: false,
      });
      return;
    case 'failed': {
      const retryAt =
        outcome.retryable && job.attempts < maxAttempts
          ? new Date(now + registered.options.backoff(job.attempts))
          : null;
      const commit = outcome.commit;
      const withDecision = commit ? (trx: Db) => commit(trx, { retryAt }) : undefined;
      if (retryAt) {
        spanEvent('quire.job.retry', {
          attempt: job.attempts,
          'quire.retry.delay_ms': retryAt.getTime() - now,
        });
        await requeueJob(
          db,
          clock,
          job,
          { runAt: retryAt, error: jobErrorText(outcome.error), countAttempt: true },
          withDecision,
        );
      } else if (commit) {
        await finishJob(
          db,
          clock,
          job,
          { status: 'failed', error: jobErrorText(outcome.error) },
          withDecision,
        );
      } else {
        await abandon(options, registered, job, outcome.error);
      }
      return;
    }
    default: {
      const never: never = outcome;
      throw new Error(`unknown outcome ${String(never)}`);
    }
  }
}

/** Fails the job for good, letting its kind record the failure where users see it. */
async function abandon(options: WorkerOptions, registered: RegisteredKind, job: ClaimedJob, error: JobError) {
  const record = registered.options.abandon;
  await finishJob(
    options.db,
    options.clock,
    job,
    { status: 'failed', error: jobErrorText(error) },
    record ? (trx) => record(trx, job, error) : undefined,
  );
}

/** Back to the queue, due now, the attempt given back (shutdown, not the job's fault). */
function releaseJob(options: WorkerOptions, job: ClaimedJob): Promise<boolean> {
  return requeueJob(options.db, options.clock, job, {
    runAt: options.clock.now(),
    error: jobErrorText({ code: 'released', message: 'the worker shut down during the attempt' }),
    countAttempt: false,
  });
}
