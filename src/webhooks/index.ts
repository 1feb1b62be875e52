export { createWebhookJobs } from './delivery-job.js';
export { sweepDeliveryLog } from './delivery-log.js';
export { registerWebhookRoutes } from './routes.js';
export { createSecretBox } from './secret-box.js';
export type { Resolver } from './url-policy.js';
