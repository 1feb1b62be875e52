import { findTeam } from '../accounts/index.js';
import type { App } from '../http/server.js';
import { enqueueJob, type JobDefinition, jobInput } from '../jobs/index.js';
import type { Capability } from '../shared/capability.js';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { EMAIL_JOB, EmailDelivery } from './delivery.js';
import { emailSendJob, type SendJobDeps } from './send-job.js';

export { addressKey, isPlainAddress, plainDeliver } from './address.js';
export type {
  DeliveryState,
  DocumentEmail,
  EmailBudget,
  EmailRequest,
} from './delivery.js';
export {
  createEmailSender,
  type EmailSender,
} from './sender.js';

/**
 * Emails with documents: the send job (EmailDelivery, which queues them, is production's port). Its close
 * ends the sender's pooled SMTP connections, shared by all that sends (app.ts closes it after them).
 */
export function createEmail(deps: SendJobDeps): Capability<App, JobDefinition> {
  return { jobs: [emailSendJob(deps)], close: () => deps.sender.close() };
}

/** deliver.email's checks and queue over the team's account and the shared job queue. */
export function createEmailDelivery(deps: { db: Db; clock: Clock }): EmailDelivery {
  const { db, clock } = deps;
  return new EmailDelivery({
    db,
    clock,
    emailVerified: async (teamId) => (await findTeam(db, teamId))?.emailVerified ?? null,
    enqueueSend: async (trx, input) => {
      // No team id: an email follows a document already counted, so it is not background work of the
      // team's own (open_jobs / test_jobs_per_day count renders only); emails have their own daily limits.
      await enqueueJob(
        trx,
        clock,
        jobInput(EMAIL_JOB, { teamId: null, test: input.test, payload: { emailId: input.emailId } }),
      );
    },
  });
}
