export { type Background, JobWorkers } from './background.js';
export { defineJobKind, jobInput, jobKind, type PayloadOf } from './define-kind.js';
export { assertWithinJobLimits } from './limits.js';
export { cancelJob, cancelJobsByKeys, type EnqueueInput, enqueueJob, enqueueJobs } from './queue.js';
export {
  backoffTable,
  type JobDefinition,
  type JobHandler,
  type JobOutcome,
} from './registry.js';
export { sweepFinishedJobs } from './retention.js';
