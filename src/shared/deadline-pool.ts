import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { type StartStamp, TaskDeadline } from './task-deadline.js';
import { startWorkerPool, type WorkerPoolOptions } from './worker-entry.js';

export interface DeadlinePoolOptions extends Omit<WorkerPoolOptions, 'onError'> {
  /** Names the pool in the warning of a failed worker, e.g. `Liquid` (Liquid worker failed: …). */
  name: string;
  /** Told of a worker failing outside any task; default: a process warning. */
  onError: ((err: unknown) => void) | undefined;
  /** The error of a task asked for after close(). */
  closedMessage: string;
}

/** At least one thread: as many as asked, else `fallback` but no more than the cores Node may use. */
export function threadCount(asked: number | undefined, fallback = Number.POSITIVE_INFINITY): number {
  return Math.max(1, asked ?? Math.min(fallback, availableParallelism()));
}

/**
 * A worker pool that starts on first use and runs every task under a TaskDeadline: what the Liquid,
 * untrusted-file and e-invoice pools have in common (the last two behind a FairPool, fair-pool.ts, which
 * shares their threads fairly between teams). close() is final, so a request that arrives during
 * shutdown cannot start the workers again.
 */
export class DeadlinePool<Body extends object, Reply> {
  readonly #options: DeadlinePoolOptions;
  #pool: Piscina<StartStamp & Body, Reply> | undefined;
  #closed = false;

  constructor(options: DeadlinePoolOptions) {
    this.#options = options;
  }

  /**
   * `body` on a worker, aborted once it has run `limitMs`. Whatever the run throws (the abort included)
   * goes through `failure`, which can tell an expired deadline by it; the run throws what it returns.
   */
  async run(
    body: Body,
    limitMs: number,
    failure: (err: unknown, deadline: TaskDeadline) => unknown,
  ): Promise<Reply> {
    const deadline = new TaskDeadline(limitMs);
    try {
      return await this.#workers().run({ ...body, ...deadline.stamp }, { signal: deadline.signal });
    } catch (err) {
      throw failure(err, deadline);
    } finally {
      deadline.clear();
    }
  }

  /** Waits for started tasks, then stops the workers; later tasks are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.close();
  }

  #workers(): Piscina<StartStamp & Body, Reply> {
    if (this.#closed) throw new Error(this.#options.closedMessage);
    this.#pool ??= startWorkerPool<StartStamp & Body, Reply>({
      ...this.#options,
      onError: this.#options.onError ?? warnOfWorkerError(this.#options.name),
    });
    return this.#pool;
  }
}

function warnOfWorkerError(pool: string): (err: unknown) => void {
  return (err) =>
    process.emitWarning(`${pool} worker failed: ${err instanceof Error ? err.message : String(err)}`);
}

/** Whether a task failed because its worker passed the heap cap (the worker alone died). */
export function workerOutOfMemory(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}
