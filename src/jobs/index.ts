export { type Background, type BackgroundOptions, startBackground } from './background.js';
export {
  type EnqueueRenderInput,
  enqueueRender,
  RENDER_JOB,
  type RenderJobPayload,
} from './enqueue-render.js';
export { assertWithinJobLimits } from './limits.js';
export { type ClaimedJob, claimJob, enqueueJob } from './queue.js';
export {
  type BackgroundRenderer,
  createRenderJobHandler,
  type RenderAttempt,
  type RenderJobDeps,
} from './render-job.js';
export { sweepFinishedJobs } from './retention.js';
export {
  type JobContext,
  type JobHandler,
  type JobOutcome,
  JobRegistry,
  startWorkers,
  type Workers,
} from './worker.js';
