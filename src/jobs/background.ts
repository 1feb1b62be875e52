import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { type JobDefinition, JobRegistry } from './registry.js';
import { type PoolSpec, startWorkers, type Workers } from './worker.js';

/**
 * Everything that runs in the background of one process, on the one job queue. The kinds and their
 * handlers come from the capabilities (app.ts registers them); each kind declares its pool, and this module
 * only decides how a process splits its workers between the two:
 *
 * - heavy kinds (renders) use Chromium and CPU: `QUIRE_WORKERS` of them in the server, and one ahead
 *   (HEAVY_POOL_AHEAD; 0 workers = none, left to `quire worker` processes);
 * - light kinds (webhook deliveries, emails, batch ZIPs) mostly wait on the network or copy stored files:
 *   every process always runs a small pool of them, so a server with `QUIRE_WORKERS=0` keeps delivering
 *   webhooks as it always did.
 */
export interface ProcessPools {
  jobs: readonly Pick<JobDefinition, 'kind' | 'pool'>[];
  /** Heavy jobs at once in this process (config.workers). */
  heavyWorkers: number;
  /** Light jobs at once in this process; defaults to LIGHT_POOL_CONCURRENCY. */
  lightWorkers?: number;
}

/** Light jobs in flight per process (the old webhook dispatcher's 8; per-endpoint caps apply on top). */
export const LIGHT_POOL_CONCURRENCY = 8;

/**
 * Heavy jobs run beyond `QUIRE_WORKERS` (PoolSpec.ahead): one job is claimed and prepared (its document,
 * plan, Liquid) or stores its file and records its outcome while the workers' documents render, so
 * Chromium's pages do not wait between background documents. With none ahead, a batch on 2 workers and 2
 * pages kept its pages busy about 80 % of the time (bench/batches.ts, issue 54). It takes a team render
 * slot like any render, so the team's limit holds; a team whose slots are all taken is not claimed again
 * until one of its jobs ends (worker.ts, `saturated`). Two ahead deferred 60 % more attempts than items
 * (Scale's 3 background slots) and was no faster.
 */
export const HEAVY_POOL_AHEAD = 1;

export function processPools(input: ProcessPools): PoolSpec[] {
  const kindsIn = (pool: JobDefinition['pool']) =>
    input.jobs.filter((j) => j.pool === pool).map((j) => j.kind);
  return [
    { name: 'heavy', kinds: kindsIn('heavy'), concurrency: input.heavyWorkers, ahead: HEAVY_POOL_AHEAD },
    { name: 'light', kinds: kindsIn('light'), concurrency: input.lightWorkers ?? LIGHT_POOL_CONCURRENCY },
  ];
}

export interface BackgroundOptions {
  db: Db;
  clock: Clock;
  registry: JobRegistry;
  pools: readonly PoolSpec[];
  log: { error(obj: Record<string, unknown>, msg: string): void };
  leaseMs?: number;
  pollMs?: number;
}

export type Background = Workers;

export function startBackground(options: BackgroundOptions): Background {
  return startWorkers({
    db: options.db,
    clock: options.clock,
    registry: options.registry,
    pools: options.pools,
    log: options.log,
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
  });
}

export interface JobWorkersOptions extends Omit<BackgroundOptions, 'registry' | 'pools'> {
  /** Heavy jobs at once in this process (config.workers). */
  heavyWorkers: number;
  /** How long jobs still running at close may go on; those running after it go back to the queue. */
  graceMs: number;
}

/**
 * This process's job workers with a lifecycle: built before the capabilities (whose routes wake them), given
 * every capability's kinds, started with the process, and drained when it closes.
 */
export class JobWorkers {
  private readonly registry = new JobRegistry();
  private readonly kinds: JobDefinition[] = [];
  private running: Background | null = null;

  constructor(private readonly options: JobWorkersOptions) {}

  /** Look for due jobs now (after an in-process enqueue committed); before start, the first poll does. */
  readonly wake = (): void => this.running?.wake();

  add(jobs: readonly JobDefinition[]): void {
    for (const job of jobs) this.registry.register(job.kind, job.handler, job.options);
    this.kinds.push(...jobs);
  }

  /** Heavy kinds run on `heavyWorkers`; light ones in every process, even with QUIRE_WORKERS=0. */
  start(): void {
    const { heavyWorkers, graceMs: _graceMs, ...options } = this.options;
    this.running = startBackground({
      ...options,
      registry: this.registry,
      pools: processPools({ jobs: this.kinds, heavyWorkers }),
    });
  }

  /** The running workers (tests wake them and wait for them to be idle). */
  get background(): Background {
    if (!this.running) throw new Error('the job workers have not started');
    return this.running;
  }

  /** Stops claiming; see Workers.stop for what happens to the jobs still running after the grace. */
  async close(): Promise<void> {
    await this.running?.stop(this.options.graceMs);
  }
}
