import { newStartStamp, type StartStamp, startedAfter } from './protocol.js';

/** How often a task still waiting for a worker is looked at again once its limit has passed. */
const QUEUE_POLL_MS = 25;

/**
 * The hard wall-clock limit of one pool task: aborts it (Piscina then terminates its worker) once
 * it has run `limitMs` since a worker started it. Time spent queued behind other tasks does not
 * count, so a busy pool never fails innocent documents. The worker stamps its start time into
 * shared memory (protocol.ts), which costs no message.
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
