import type { App } from '../http/server.js';
import type { JobDefinition } from '../jobs/index.js';
import type { Capability } from '../shared/capability.js';
import { emailSendJob, type SendJobDeps } from './send-job.js';

export { addressKey, isPlainAddress, plainDeliver } from './address.js';
export {
  type DeliveryState,
  type DocumentEmail,
  EMAIL_JOB,
  type EmailBudget,
  EmailDelivery,
  type EmailRequest,
} from './delivery.js';
export {
  createEmailSender,
  type EmailSender,
} from './sender.js';

/** Emails with documents: the send job (EmailDelivery, which queues them, is production's port). */
export function createEmail(deps: SendJobDeps): Capability<App, JobDefinition> {
  return { jobs: [emailSendJob(deps)] };
}
