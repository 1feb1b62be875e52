import { AppError } from './errors.js';
import { FairQueue } from './fair-queue.js';
import type { TaskDeadline } from './task-deadline.js';

/** What a fair pool hands its tasks to: a DeadlinePool (deadline-pool.ts), or a stand-in in tests. */
export interface TaskRunner<Body, Reply> {
  run(body: Body, limitMs: number, failure: TaskFailure): Promise<Reply>;
  close(): Promise<void>;
}

/** Turns whatever a run threw into what the caller throws; `deadline.expired` tells a stopped task. */
export type TaskFailure = (err: unknown, deadline: TaskDeadline) => unknown;

/** Tasks waiting for a thread, at most; past either bound a new task is refused with service_busy. */
export interface QueueBounds {
  /** Waiting tasks of the whole pool. */
  total: number;
  /** Waiting tasks of one team. */
  perTeam: number;
}

/**
 * A team may have 8 tasks waiting (a burst of uploads from a script or a few browser tabs), and four teams
 * at that fill the pool's 32. Each waiting task holds its file in memory until it runs, and a task further
 * back than that would rarely start within its time limit on two threads anyway.
 */
export const QUEUE_BOUNDS: QueueBounds = { total: 32, perTeam: 8 };

/** Seconds a refused client is told to wait (Retry-After), as for the other service_busy refusals. */
const RETRY_AFTER_S = 1;

export interface FairPoolOptions {
  /** Tasks handed to the runner at once: its threads, so that it never queues a task itself. */
  threads: number;
  bounds?: QueueBounds | undefined;
  /** What the pool does, for its busy messages: "reading uploaded files". */
  work: string;
}

interface Waiter {
  /** Takes a thread for the waiter's team and lets its task go. */
  start(): void;
  refuse(err: AppError): void;
}

/**
 * A bounded, fair queue in front of a worker pool shared by every team (the untrusted-file and e-invoice
 * pools). At most `threads` tasks run at once, and one team at most all but one of them; a free thread goes
 * to the waiting team with the fewest tasks running, ties to the one served longest ago (fair-queue.ts). So a
 * team that floods the pool leaves a thread free for the others, and another team's lone task starts at
 * once, however many the flood queued before it.
 *
 * A task's time limit runs from its submission: the wait for a thread counts, so a request is answered
 * within its limit however busy the pool is (plus what the worker excuses itself: its own start, the
 * e-invoice rules' first load; see task-deadline.ts). A task that runs out of time while waiting, or after
 * waiting so long that the file had less than half its limit, is refused as service_busy (retry): the file
 * did nothing wrong. A file is blamed for its time only when it had at least half the limit to itself.
 */
export class FairPool<Body, Reply> {
  readonly #runner: TaskRunner<Body, Reply>;
  readonly #threads: number;
  readonly #bounds: QueueBounds;
  readonly #work: string;
  readonly #queue = new FairQueue<Waiter>();
  #running = 0;

  constructor(runner: TaskRunner<Body, Reply>, options: FairPoolOptions) {
    this.#runner = runner;
    this.#threads = options.threads;
    this.#bounds = options.bounds ?? QUEUE_BOUNDS;
    this.#work = options.work;
  }

  /** `body` run for `team` within `limitMs` from now; `failure` as for DeadlinePool.run. */
  async run(team: string, body: Body, limitMs: number, failure: TaskFailure): Promise<Reply> {
    const submittedAt = Date.now();
    await this.#turn(team, limitMs);
    const waitedMs = Date.now() - submittedAt;
    try {
      if (waitedMs >= limitMs) throw this.#waitedTooLong(limitMs);
      return await this.#runner.run(body, limitMs - waitedMs, (err, deadline) =>
        deadline.expired && waitedMs > limitMs / 2
          ? this.#cutShort(waitedMs, limitMs)
          : failure(err, deadline),
      );
    } finally {
      this.#release(team);
    }
  }

  /** Refuses the waiting tasks, then waits for the running ones and stops the workers. */
  async close(): Promise<void> {
    for (const waiter of this.#queue.drain()) waiter.refuse(this.#shuttingDown());
    await this.#runner.close();
  }

  /**
   * Threads one team may hold at once: all but one, so a team that floods the pool always leaves a thread
   * for another team's lone task, which then never waits for one of the flood's tasks to end.
   */
  #perTeam(): number {
    return Math.max(1, this.#threads - 1);
  }

  #mayStart(team: string): boolean {
    return this.#running < this.#threads && this.#queue.inUseOf(team) < this.#perTeam();
  }

  /** Resolves once `team` holds a thread: at once when one is free to it, else in its turn. */
  #turn(team: string, limitMs: number): Promise<void> {
    if (this.#mayStart(team)) {
      this.#take(team);
      return Promise.resolve();
    }
    this.#assertRoom(team);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(timer);
          this.#take(team);
          resolve();
        },
        refuse: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        if (this.#queue.remove(team, waiter)) reject(this.#waitedTooLong(limitMs));
      }, limitMs);
      this.#queue.push(team, waiter);
    });
  }

  #take(team: string): void {
    this.#running += 1;
    this.#queue.started(team);
  }

  /** The thread goes straight to the next waiter, so a free thread and a waiting task never coexist. */
  #release(team: string): void {
    this.#running -= 1;
    this.#queue.finished(team);
    if (this.#running < this.#threads) this.#queue.next((waiting) => this.#mayStart(waiting))?.item.start();
  }

  #assertRoom(team: string): void {
    const { perTeam, total } = this.#bounds;
    if (this.#queue.waitingOf(team) >= perTeam)
      throw this.#busy(
        `This team already has ${perTeam} files waiting while Quire is busy ${this.#work}; retry in a few seconds.`,
        { limit: 'queued_per_team', max: perTeam },
      );
    if (this.#queue.size >= total)
      throw this.#busy(`Quire is busy ${this.#work}: ${total} are waiting already; retry in a few seconds.`, {
        limit: 'queued',
        max: total,
      });
  }

  #waitedTooLong(limitMs: number): AppError {
    return this.#busy(
      `Quire was busy ${this.#work}: this one waited ${seconds(limitMs)} s, its whole time limit, for a free worker; retry in a few seconds.`,
      { limit: 'queue_wait_ms', max: limitMs },
    );
  }

  #cutShort(waitedMs: number, limitMs: number): AppError {
    return this.#busy(
      `Quire was busy ${this.#work}: this one waited ${seconds(waitedMs)} s for a free worker and ran out of its ${seconds(limitMs)} s limit; retry in a few seconds.`,
      { limit: 'queue_wait_ms', max: limitMs },
    );
  }

  #shuttingDown(): AppError {
    return this.#busy('Quire is shutting down; retry in a few seconds.', undefined);
  }

  #busy(message: string, details: Record<string, unknown> | undefined): AppError {
    return new AppError('service_busy', message, details, { 'retry-after': String(RETRY_AFTER_S) });
  }
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
