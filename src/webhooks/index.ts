export { type AttemptResult, createHttpDeliverer, type HttpDeliverer } from './deliver-http.js';
export { createWebhookJobs, type WebhookJobs } from './delivery-job.js';
export { sweepDeliveryLog } from './delivery-log.js';
export {
  buildEnvelope,
  type EventDocument,
  type EventEnvelope,
  type EventType,
  pdfEventData,
} from './events.js';
export { queueManualRetry, queueTestEvent, type RecordedEvent, recordEvent } from './outbox.js';
export { recordPdfEvent } from './pdf-events.js';
export { registerWebhookRoutes, type WebhookRouteDeps } from './routes.js';
export { createSecretBox, type SecretBox } from './secret-box.js';
export { generateWebhookSecret, signatureHeader, verifySignature } from './signing.js';
export { checkUrlShape, checkWebhookUrl, type Resolver, type UrlRefusal } from './url-policy.js';
