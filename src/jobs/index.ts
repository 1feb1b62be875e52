export {
  type Background,
  processPools,
  startBackground,
} from './background.js';
export { assertWithinJobLimits } from './limits.js';
export { cancelJob, cancelJobsByKeys, type EnqueueInput, enqueueJob, enqueueJobs } from './queue.js';
export {
  backoffTable,
  type JobDefinition,
  type JobHandler,
  type JobKindOptions,
  type JobOutcome,
  JobRegistry,
} from './registry.js';
export { sweepFinishedJobs } from './retention.js';
