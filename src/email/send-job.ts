import { defineJobKind, type JobDefinition, type JobHandler, type JobOutcome } from '../jobs/index.js';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { type DeliveryState, EMAIL_JOB } from './delivery.js';
import type { EmailSender } from './sender.js';
import type { EmailDeliveriesTable } from './tables.js';

/** What the send job needs from the documents capability: the file, and where the status is shown. */
export interface EmailDocumentPort {
  /** The stored file and its name, or null when it is no longer stored. */
  file(documentId: string): Promise<{ content: Buffer; filename: string; contentType: string } | null>;
  /** Shows the email's state on the document (`delivery`), in the job's transaction. */
  setDelivery(trx: Db, documentId: string, state: DeliveryState): Promise<void>;
}

/** Temporary failures (4xx, connection errors) are retried; the last attempt's failure is final. */
export const EMAIL_MAX_ATTEMPTS = 5;
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000];

export type SendJobDeps = { clock: Clock; sender: EmailSender; documents: EmailDocumentPort };

/**
 * Emails wait on the SMTP server: light, so they are sent in every process, even with QUIRE_WORKERS=0.
 * Temporary failures wait 1 min, 5 min, 30 min, 2 h. `abandon` records the failure of a job given up
 * without an outcome (its workers kept dying).
 */
export function emailSendJob(deps: SendJobDeps): JobDefinition {
  return defineJobKind({
    kind: EMAIL_JOB,
    pool: 'light',
    handler: createEmailSendHandler(deps),
    maxAttempts: EMAIL_MAX_ATTEMPTS,
    retryDelaysMs: RETRY_DELAYS_MS,
    abandon: async (trx, job, error) => {
      const email = await findEmail(trx, job.payload);
      if (email?.status === 'queued')
        await finish(deps, email, { status: 'failed', reason: 'send_failed', error }).commit(trx);
    },
  });
}

/** The email delivery a send job's payload names (undefined once it is gone). */
async function findEmail(db: Db, payload: unknown): Promise<EmailDeliveriesTable | undefined> {
  const { emailId } = payload as { emailId: string };
  return db.selectFrom('email_deliveries').selectAll().where('id', '=', emailId).executeTakeFirst();
}

/**
 * Sends one queued email with the PDF attached. Sent → `sent`; a permanent refusal (5xx) → `failed`
 * (`send_failed`) and the address joins the team's suppression list; a temporary one is retried.
 */
function createEmailSendHandler(deps: SendJobDeps): JobHandler {
  return async (job, ctx): Promise<JobOutcome> => {
    const email = await findEmail(ctx.db, job.payload);
    if (email?.status !== 'queued') return { kind: 'succeeded' };
    const file = await deps.documents.file(email.document_id);
    if (!file)
      return finish(deps, email, { status: 'failed', reason: 'not_stored', error: 'file no longer stored' });
    const result = await deps.sender.send({
      to: email.address,
      subject: email.subject,
      text: email.message,
      html: htmlOf(email.message),
      ...(email.reply_to ? { replyTo: email.reply_to } : {}),
      attachments: [{ filename: file.filename, content: file.content, contentType: file.contentType }],
    });
    if (result.ok) return finish(deps, email, { status: 'sent', reason: null, error: null });
    const final = finish(deps, email, {
      status: 'failed',
      reason: 'send_failed',
      error: result.error,
      suppress: result.permanent,
    });
    if (result.permanent) return final;
    // Temporary: the worker retries while attempts are left; only the last attempt's failure is recorded.
    return {
      kind: 'failed',
      error: result.error,
      retryable: true,
      commit: async (trx, next) => {
        if (next.retryAt === null) await final.commit(trx);
      },
    };
  };
}

function finish(
  deps: { clock: Clock; documents: EmailDocumentPort },
  email: EmailDeliveriesTable,
  end: {
    status: 'sent' | 'failed';
    reason: 'not_stored' | 'send_failed' | null;
    error: string | null;
    suppress?: boolean;
  },
): Extract<JobOutcome, { kind: 'succeeded' | 'failed' }> & { commit: (trx: Db) => Promise<void> } {
  const commit = async (trx: Db) => {
    const now = deps.clock.now().toISOString();
    await trx
      .updateTable('email_deliveries')
      .set({ status: end.status, reason: end.reason, last_error: end.error, updated_at: now })
      .where('id', '=', email.id)
      .execute();
    if (end.suppress) {
      await trx
        .insertInto('email_suppressions')
        .values({
          team_id: email.team_id,
          address: email.address,
          reason: end.error ?? 'refused',
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['team_id', 'address']).doNothing())
        .execute();
    }
    const state: DeliveryState = {
      email: { status: end.status, ...(end.reason ? { reason: end.reason } : {}) },
    };
    await deps.documents.setDelivery(trx, email.document_id, state);
  };
  return end.status === 'sent'
    ? { kind: 'succeeded', commit }
    : { kind: 'failed', error: end.error ?? end.status, retryable: false, commit };
}

/** The plain-text message as escaped HTML paragraphs (never HTML from the caller). */
function htmlOf(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<p>${escaped
    .split(/\r?\n\r?\n/)
    .map((p) => p.replace(/\r?\n/g, '<br>'))
    .join('</p><p>')}</p>`;
}
