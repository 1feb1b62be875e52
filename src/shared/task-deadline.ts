/**
 * Written by the worker when it starts a task, so the hard limit does not count the time before: a wait in
 * Piscina's queue (the Liquid pool's; a fair pool hands Piscina no more tasks than it has threads and counts
 * its own queue's wait itself, fair-pool.ts) and a new thread's start.
 */
export interface StartStamp {
  /** Date.now() on the main thread when the task was submitted. */
  submittedAt: number;
  /** One Int32 over a SharedArrayBuffer: 0 while queued, then 1 + ms from submission to start. */
  started: Int32Array;
}

export function markStarted(stamp: StartStamp): void {
  Atomics.store(stamp.started, 0, Date.now() - stamp.submittedAt + 1);
}

/** Milliseconds from submission to start, or undefined while the task is still queued. */
function startedAfter(stamp: StartStamp): number | undefined {
  const value = Atomics.load(stamp.started, 0);
  return value === 0 ? undefined : value - 1;
}

function newStartStamp(): StartStamp {
  return { submittedAt: Date.now(), started: new Int32Array(new SharedArrayBuffer(4)) };
}

/** How often a task still waiting for a worker is looked at again once its limit has passed. */
const QUEUE_POLL_MS = 25;

/**
 * The hard wall-clock limit of one pool task: aborts it (Piscina then terminates its worker) once
 * it has run `limitMs` since a worker started it. Time spent in Piscina's queue does not count, so a
 * busy Liquid pool never fails innocent templates; a fair pool (fair-pool.ts) passes only what is left
 * of a task's limit after its wait in the fair queue. The worker stamps its start time into shared
 * memory (markStarted, again when a one-time cost of the server's is behind it), which costs no message.
 */
export class TaskDeadline {
  readonly stamp: StartStamp = newStartStamp();
  readonly #controller = new AbortController();
  readonly #limitMs: number;
  #timer: NodeJS.Timeout;

  constructor(limitMs: number) {
    this.#limitMs = limitMs;
    this.#timer = setTimeout(() => this.#check(), limitMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Whether the task was stopped for running too long. */
  get expired(): boolean {
    return this.#controller.signal.aborted;
  }

  clear(): void {
    clearTimeout(this.#timer);
  }

  #check(): void {
    const after = startedAfter(this.stamp);
    if (after === undefined) {
      this.#timer = setTimeout(() => this.#check(), QUEUE_POLL_MS);
      return;
    }
    const remaining = this.stamp.submittedAt + after + this.#limitMs - Date.now();
    if (remaining > 0) this.#timer = setTimeout(() => this.#check(), remaining);
    else this.#controller.abort();
  }
}
