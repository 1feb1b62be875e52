import type { SweepTask } from './sweeper.js';

/**
 * The one contract between a capability folder and the composition root: the folder's
 * `index.ts` exports `createX(deps)` returning this, and app.ts builds the shared dependencies once, then
 * loops over the capabilities — signed routes, then authenticated routes, jobs, sweeps — in one fixed order
 * (the order of the OpenAPI document), and starts and closes them in another (startInOrder).
 *
 * Generic over the route scope and the job definition so this leaf folder names neither Fastify nor the job
 * queue; capabilities use `Capability<App, JobDefinition>`.
 */
export interface Capability<Scope, Job> extends Lifecycle {
  /**
   * Routes without an API key (signed links, sign-in): registered in the public /v1 scope, before the
   * authenticated one.
   */
  signedRoutes?(scope: Scope): void;
  /** Routes behind the API key or session: registered in the authenticated /v1 scope. */
  routes?(scope: Scope): void;
  /** Background job kinds, each declaring its own pool. */
  jobs?: readonly Job[];
  /** Retention sweeps, run by the process's Sweeper. */
  sweeps?: readonly Sweep[];
}

/**
 * What a part of the process does when the process starts and when it stops. Parts without routes (a worker
 * pool, Chromium, the database) have only this.
 */
export interface Lifecycle {
  /** Begins the part's own running work (timers, workers, heartbeats), once everything is composed. */
  start?(): Promise<void> | void;
  /** Releases what the part holds; called only once every part started after it has closed. */
  close?(): Promise<void> | void;
}

export interface Sweep {
  /** Named in the log when the sweep fails. */
  name: string;
  run: SweepTask;
}

/**
 * Starts the parts in order, each start awaited before the next, and returns what closes them: every
 * started part's close in reverse order, each awaited before the next. A part is listed after what it uses,
 * so it closes while what it uses is still open (the way Fastify runs its plugins' onClose hooks).
 */
export async function startInOrder(parts: readonly Lifecycle[]): Promise<() => Promise<void>> {
  const started: Lifecycle[] = [];
  for (const part of parts) {
    await part.start?.();
    started.push(part);
  }
  return async () => {
    for (const part of [...started].reverse()) await part.close?.();
  };
}
