export { type Background, type BackgroundOptions, startBackground } from './background.js';
export { assertWithinJobLimits } from './limits.js';
export { type ClaimedJob, claimJob, enqueueJob } from './queue.js';
export { sweepFinishedJobs } from './retention.js';
export {
  type JobContext,
  type JobHandler,
  type JobOutcome,
  JobRegistry,
  startWorkers,
  type Workers,
} from './worker.js';
