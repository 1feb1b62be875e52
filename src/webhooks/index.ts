import type { App } from '../http/server.js';
import type { JobDefinition } from '../jobs/index.js';
import type { Capability } from '../shared/capability.js';
import { createWebhookJobs, type WebhookJobsDeps } from './delivery-job.js';
import { sweepDeliveryLog } from './delivery-log.js';
import { registerWebhookRoutes } from './routes.js';
import type { WebhookServiceDeps } from './service.js';

export type { EventDocument } from './events.js';
export { recordEvent } from './outbox.js';
export { recordPdfEvent } from './pdf-events.js';
export { createSecretBox } from './secret-box.js';
export type { Resolver } from './url-policy.js';

export type WebhooksOptions = WebhookServiceDeps & Omit<WebhookJobsDeps, 'deliverer'>;

/** Webhook endpoints, their deliveries (light jobs) and the delivery log's retention. */
export interface WebhooksModule extends Capability<App, JobDefinition> {
  /** Closes the deliverer's HTTP connections; call after the job workers stopped. */
  close(): Promise<void>;
}

export function createWebhooks(options: WebhooksOptions): WebhooksModule {
  const jobs = createWebhookJobs(options);
  return {
    routes: (app) => registerWebhookRoutes(app, options),
    jobs: jobs.jobs,
    sweeps: [{ name: 'webhook-deliveries', run: () => sweepDeliveryLog(options.db, options.clock) }],
    close: jobs.close,
  };
}
