import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/db.js';
import type { JobRegistry } from './registry.js';
import { type PoolSpec, startWorkers, type Workers } from './worker.js';

/**
 * Everything that runs in the background of one process, on the one job queue. The kinds and their
 * handlers come from outside (app.ts registers them); this module only decides how a process splits its
 * workers between them:
 *
 * - heavy kinds (renders, later batch items and ZIP builds) use Chromium and CPU: `QUIRE_WORKERS` of them
 *   in the server (0 = none, left to `quire worker` processes);
 * - light kinds (webhook deliveries, later emails) mostly wait on the network: every process always runs
 *   a small pool of them, so a server with `QUIRE_WORKERS=0` keeps delivering webhooks as it always did.
 */
export interface ProcessPools {
  heavyKinds: readonly string[];
  /** Heavy jobs at once in this process (config.workers). */
  heavyWorkers: number;
  lightKinds: readonly string[];
  /** Light jobs at once in this process; defaults to LIGHT_POOL_CONCURRENCY. */
  lightWorkers?: number;
}

/** Light jobs in flight per process (the old webhook dispatcher's 8; per-endpoint caps apply on top). */
export const LIGHT_POOL_CONCURRENCY = 8;

export function processPools(input: ProcessPools): PoolSpec[] {
  return [
    { name: 'heavy', kinds: input.heavyKinds, concurrency: input.heavyWorkers },
    { name: 'light', kinds: input.lightKinds, concurrency: input.lightWorkers ?? LIGHT_POOL_CONCURRENCY },
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
