export {
  type Background,
  type BackgroundOptions,
  LIGHT_POOL_CONCURRENCY,
  processPools,
  startBackground,
} from './background.js';
export { assertWithinJobLimits, type JobLimits } from './limits.js';
export {
  type ClaimedJob,
  type Commit,
  cancelJob,
  cancelJobByKey,
  claimJob,
  type EnqueuedJob,
  type EnqueueInput,
  enqueueJob,
  findJobByKey,
} from './queue.js';
export {
  backoffTable,
  type JobContext,
  type JobHandler,
  type JobKindOptions,
  type JobOutcome,
  JobRegistry,
  type NextAttempt,
} from './registry.js';
export { sweepFinishedJobs } from './retention.js';
export { FINISHED_STATES, type JobStatus, OPEN_STATES } from './tables.js';
export { DEFAULT_SHUTDOWN_GRACE_MS, type PoolSpec, startWorkers, type Workers } from './worker.js';
