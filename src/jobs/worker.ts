import { hostname } from 'node:os';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/db.js';
import { type ClaimedJob, claimJob, extendLease, finishJob, requeueJob } from './queue.js';

/**
 * In-process workers: each claims one job at a time, keeps its lease alive with a heartbeat while the
 * handler runs, and records the handler's outcome guarded by the lease.
 */
export type JobOutcome =
  /** Done; `commit` runs in the transaction that marks the job succeeded. */
  | { kind: 'succeeded'; commit?: (trx: Db) => Promise<void> }
  /** Given up; `commit` runs in the transaction that marks the job failed. */
  | { kind: 'failed'; error: string; commit?: (trx: Db) => Promise<void> }
  /** Try again after `delayMs`; the attempt counts. */
  | { kind: 'retry'; delayMs: number; error: string }
  /** Not started (e.g. no free render slot): wait `delayMs`; the attempt does not count. */
  | { kind: 'defer'; delayMs: number };

export interface JobContext {
  db: Db;
  clock: Clock;
  /** Aborted when the lease is lost or the workers stop. */
  signal: AbortSignal;
}

export type JobHandler = (job: ClaimedJob, ctx: JobContext) => Promise<JobOutcome>;

/** Job type → handler. Capabilities register theirs at composition (e.g. `render`). */
export class JobRegistry {
  private readonly handlers = new Map<string, JobHandler>();

  register(type: string, handler: JobHandler): void {
    if (this.handlers.has(type)) throw new Error(`job handler "${type}" already registered`);
    this.handlers.set(type, handler);
  }

  get(type: string): JobHandler | undefined {
    return this.handlers.get(type);
  }

  types(): string[] {
    return [...this.handlers.keys()];
  }
}

export interface WorkerOptions {
  db: Db;
  clock: Clock;
  registry: JobRegistry;
  concurrency: number;
  /** A claimed job whose worker stops heart-beating is free again after this long. */
  leaseMs?: number;
  /** Sleep between polls when the queue is empty (in-process enqueues wake the workers at once). */
  pollMs?: number;
  log?: { error(obj: Record<string, unknown>, msg: string): void };
}

export interface Workers {
  /** Look for due jobs now (after an in-process enqueue). */
  wake(): void;
  /** Stops claiming; waits for running handlers (their signal is aborted after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_POLL_MS = 1_000;

export function startWorkers(options: WorkerOptions): Workers {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const stopping = new AbortController();
  const hard = new AbortController();
  const sleepers = new Set<() => void>();
  // Counts wake-ups so a wake that arrives while a worker is claiming (not yet asleep) is not lost.
  let wakeups = 0;
  const wake = () => {
    wakeups += 1;
    for (const resume of sleepers) resume();
  };
  const sleep = (ms: number, seen: number) =>
    new Promise<void>((resolve) => {
      if (wakeups !== seen) return resolve();
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });
  const loops: Promise<void>[] = [];
  for (let i = 0; i < options.concurrency; i += 1) {
    const owner = `${hostname()}:${process.pid}:${i}:${Math.random().toString(36).slice(2, 10)}`;
    const signals = { stopping: stopping.signal, hard: hard.signal };
    const idle = { mark: () => wakeups, sleep: (seen: number) => sleep(pollMs, seen) };
    loops.push(workerLoop({ ...options, leaseMs }, owner, signals, idle));
  }
  return {
    wake,
    async stop(graceMs = 30_000) {
      stopping.abort();
      wake();
      const grace = setTimeout(() => hard.abort(), graceMs);
      await Promise.allSettled(loops);
      clearTimeout(grace);
    },
  };
}

async function workerLoop(
  options: WorkerOptions & { leaseMs: number },
  owner: string,
  signals: { stopping: AbortSignal; hard: AbortSignal },
  idle: { mark(): number; sleep(seen: number): Promise<void> },
): Promise<void> {
  while (!signals.stopping.aborted) {
    let job: ClaimedJob | null = null;
    const seen = idle.mark();
    try {
      job = await claimJob(options.db, options.clock, {
        owner,
        leaseMs: options.leaseMs,
        types: options.registry.types(),
      });
      if (job) await runClaimed(options, job, signals.hard);
    } catch (err) {
      options.log?.error({ err, jobId: job?.id }, 'job worker error');
    }
    if (!job) await idle.sleep(seen);
  }
}

async function runClaimed(
  options: WorkerOptions & { leaseMs: number },
  job: ClaimedJob,
  hard: AbortSignal,
): Promise<void> {
  const { db, clock } = options;
  const handler = options.registry.get(job.type);
  if (!handler) return;
  const lease = new AbortController();
  const beat = setInterval(
    () => {
      extendLease(db, clock, job, options.leaseMs)
        .then((held) => {
          if (!held) lease.abort();
        })
        .catch(() => {});
    },
    Math.max(50, Math.floor(options.leaseMs / 3)),
  );
  try {
    const signal = AbortSignal.any([lease.signal, hard]);
    const outcome = await runHandler(handler, job, { db, clock, signal });
    await recordOutcome(db, clock, job, outcome);
  } finally {
    clearInterval(beat);
  }
}

/** A job whose handler keeps throwing (or keeps killing its process) stops being retried after this. */
export const MAX_FAULT_ATTEMPTS = 5;
const FAULT_RETRY_MS = 30_000;

async function runHandler(handler: JobHandler, job: ClaimedJob, ctx: JobContext): Promise<JobOutcome> {
  try {
    return await handler(job, ctx);
  } catch (err) {
    // A handler turns expected failures into outcomes; anything thrown is a fault: retry a few times.
    const error = err instanceof Error ? err.message : String(err);
    if (job.attempts >= MAX_FAULT_ATTEMPTS) return { kind: 'failed', error };
    return { kind: 'retry', delayMs: FAULT_RETRY_MS, error };
  }
}

async function recordOutcome(db: Db, clock: Clock, job: ClaimedJob, outcome: JobOutcome): Promise<void> {
  const now = clock.now().getTime();
  switch (outcome.kind) {
    case 'succeeded':
      await finishJob(db, clock, job, { status: 'succeeded', error: null }, outcome.commit);
      return;
    case 'failed':
      await finishJob(db, clock, job, { status: 'failed', error: outcome.error }, outcome.commit);
      return;
    case 'retry':
      await requeueJob(db, clock, job, {
        runAt: new Date(now + outcome.delayMs),
        error: outcome.error,
        countAttempt: true,
      });
      return;
    case 'defer':
      await requeueJob(db, clock, job, {
        runAt: new Date(now + outcome.delayMs),
        error: null,
        countAttempt: false,
      });
      return;
    default: {
      const never: never = outcome;
      throw new Error(`unknown outcome ${String(never)}`);
    }
  }
}
