import type { Clock } from './clock.js';

export type SweepTask = (now: Date) => Promise<unknown>;

/**
 * Runs every capability's retention sweep periodically (and once shortly after start). A failing task is
 * logged and retried at the next tick; tasks never overlap.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly tasks: Array<{ name: string; run: SweepTask }> = [];

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly onError: (name: string, err: unknown) => void,
  ) {}

  add(name: string, run: SweepTask): void {
    this.tasks.push({ name, run });
  }

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
    setTimeout(() => void this.runOnce(), 5_000).unref();
  }

  /** One pass over every task; also what tests call with a moved clock. */
  runOnce(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      for (const task of this.tasks) {
        try {
          await task.run(this.clock.now());
        } catch (err) {
          this.onError(task.name, err);
        }
      }
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
