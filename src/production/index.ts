/**
 * Production: the one use case that turns a request into a stored, recorded document (sync, async,
 * previews, template thumbnails, batch items), and its background job.
 */
export { createAdmission } from './admission.js';
export {
  type BackgroundDeps,
  createRenderJobHandler,
  enqueueDocument,
  RENDER_JOB,
  renderJobOptions,
} from './background.js';
export type { ResolvedTemplate, TemplatePort } from './ports.js';
export {
  type ProduceDeps,
  type Produced,
  produceDocument,
} from './produce.js';
