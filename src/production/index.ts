/**
 * Production: the one use case that turns a request into a stored, recorded document (sync, async,
 * previews, template thumbnails, batch items), and its background job, behind one narrow interface.
 */
export { createAdmission } from './admission.js';
export { CaptureFields, checkCaptureRules } from './capture.js';
export type { BulkItem } from './enqueue.js';
export type {
  BrandKit,
  BrandPort,
  Caller,
  CertificatePort,
  ResolvedTemplate,
  TemplatePort,
} from './ports.js';
export { createProduction, type Production, type ProductionDeps } from './production.js';
export type { Produced } from './record.js';
export { AccessibilityReportField, DeliverBody, PageOptionFields } from './request-schema.js';
export { expiryFor } from './storage-policy.js';
