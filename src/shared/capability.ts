import type { SweepTask } from './sweeper.js';

/**
 * The one contract between a capability folder and the composition root: the folder's
 * `index.ts` exports `createX(deps)` returning this, and app.ts builds the shared dependencies once, then
 * loops over the capabilities — signed routes, then authenticated routes, jobs, sweeps — in one fixed order
 * (the order of the OpenAPI document).
 *
 * Generic over the route scope and the job definition so this leaf folder names neither Fastify nor the job
 * queue; capabilities use `Capability<App, JobDefinition>`.
 */
export interface Capability<Scope, Job> {
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

export interface Sweep {
  /** Named in the log when the sweep fails. */
  name: string;
  run: SweepTask;
}
