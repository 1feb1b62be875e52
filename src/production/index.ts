/**
 * Production: the one use case that turns a request into a stored, recorded document (sync, async,
 * previews, template thumbnails, batch items), and its background job.
 */
export { type Admission, createAdmission } from './admission.js';
export {
  type BackgroundDeps,
  type BulkItem,
  createRenderJobHandler,
  enqueueDocument,
  enqueueDocuments,
  RENDER_JOB,
  type RenderHooks,
  renderJobKey,
  renderJobOptions,
} from './background.js';
export type { EInvoiceSummary } from './einvoice.js';
export type {
  Caller,
  DocumentRequest,
  LiquidPort,
  RendererPort,
  ResolvedTemplate,
  TemplatePort,
} from './ports.js';
export { type ProduceDeps, type Produced, type ProduceInput, produceDocument } from './produce.js';
export { expiryFor } from './storage-policy.js';
