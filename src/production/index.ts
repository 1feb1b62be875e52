/**
 * Production: the one use case that turns a request into a stored, recorded document (sync, async,
 * previews, template thumbnails, batch items), and its background job.
 */
export { createAdmission } from './admission.js';
export {
  type BackgroundDeps,
  type BulkItem,
  checkSigningCertificate,
  createRenderJobHandler,
  enqueueDocument,
  enqueueDocuments,
  RENDER_JOB,
  renderJobKey,
  renderJobOptions,
} from './background.js';
export { checkMergeSources } from './merge-sources.js';
export type { Caller, ResolvedTemplate, TemplatePort } from './ports.js';
export { type ProduceDeps, type Produced, produceDocument } from './produce.js';
export { expiryFor } from './storage-policy.js';
