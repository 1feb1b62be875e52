import {
  defineJobKind,
  type JobDefinition,
  type JobHandler,
  type JobOutcome,
  type PayloadOf,
} from '../jobs/index.js';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { inSpan, markFailed } from '../telemetry/index.js';
import { type DeliveryState, EMAIL_JOB } from './delivery.js';
import type { EmailSender } from './sender.js';
import { type EmailTransition, mayMove, movableFrom, TRANSITIONS } from './states.js';
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
      const email = await findEmail(trx, job.payload.emailId);
      if (email && mayMove('fail', email.status)) {
        const end: EmailEnd = { move: 'fail', reason: 'send_failed', error: error.message };
        await finish(deps, email, end).commit(trx);
      }
    },
  });
}

/** The email delivery a send job's payload names (undefined once it is gone). */
async function findEmail(db: Db, emailId: string): Promise<EmailDeliveriesTable | undefined> {
  return db.selectFrom('email_deliveries').selectAll().where('id', '=', emailId).executeTakeFirst();
}

/**
 * Sends one queued email with the PDF attached. Sent → `sent`; a permanent refusal (5xx) → `failed`
 * (`send_failed`) and the address joins the team's suppression list; a temporary one is retried.
 */
function createEmailSendHandler(deps: SendJobDeps): JobHandler<PayloadOf<typeof EMAIL_JOB>> {
  return async (job, ctx): Promise<JobOutcome> => {
    const email = await findEmail(ctx.db, job.payload.emailId);
    // Sent or failed already (an earlier attempt's commit): nothing is left to do.
    if (!email || !mayMove('send', email.status)) return { kind: 'succeeded' };
    const file = await deps.documents.file(email.document_id);
    if (!file)
      return finish(deps, email, { move: 'fail', reason: 'not_stored', error: 'file no longer stored' });
    const message = {
      to: email.address,
      subject: email.subject,
      text: email.message,
      html: htmlOf(email.message),
      ...(email.reply_to ? { replyTo: email.reply_to } : {}),
      attachments: [{ filename: file.filename, content: file.content, contentType: file.contentType }],
    };
    // A span of the document's trace; the address and the text never go into it.
    const result = await inSpan('quire.email.send', {}, async (span) => {
      const sent = await deps.sender.send(message);
      if (span && !sent.ok) markFailed(span, { code: sent.permanent ? 'send_refused' : 'send_failed' });
      return sent;
    });
    if (result.ok) return finish(deps, email, { move: 'send' });
    const final = finish(deps, email, {
      move: 'fail',
      reason: 'send_failed',
      error: result.error,
      suppress: result.permanent,
    });
    if (result.permanent) return final;
    // Temporary: the worker retries while attempts are left; only the last attempt's failure is recorded.
    return {
      kind: 'failed',
      error: { code: 'send_failed', message: result.error },
      retryable: true,
      commit: async (trx, next) => {
        if (next.retryAt === null) await final.commit(trx);
      },
    };
  };
}

/** How a queued email ends: sent, or failed for a reason (`suppress`: the address refused it for good). */
type EmailEnd =
  | { move: Extract<EmailTransition, 'send'> }
  | {
      move: Extract<EmailTransition, 'fail'>;
      reason: 'not_stored' | 'send_failed';
      error: string;
      suppress?: boolean;
    };

function finish(
  deps: { clock: Clock; documents: EmailDocumentPort },
  email: EmailDeliveriesTable,
  end: EmailEnd,
): Extract<JobOutcome, { kind: 'succeeded' | 'failed' }> & { commit: (trx: Db) => Promise<void> } {
  const status = TRANSITIONS[end.move].to;
  const failure = end.move === 'fail' ? end : null;
  const commit = async (trx: Db) => {
    const now = deps.clock.now().toISOString();
    await trx
      .updateTable('email_deliveries')
      .set({ status, reason: failure?.reason ?? null, last_error: failure?.error ?? null, updated_at: now })
      .where('id', '=', email.id)
      // Never refuses today: the lease-holding send job is a queued email's one writer.
      .where('status', 'in', movableFrom(end.move))
      .execute();
    if (failure?.suppress) {
      await trx
        .insertInto('email_suppressions')
        .values({
          team_id: email.team_id,
          address: email.address,
          reason: failure.error,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['team_id', 'address']).doNothing())
        .execute();
    }
    const state: DeliveryState = {
      email: { status, ...(failure ? { reason: failure.reason } : {}) },
    };
    await deps.documents.setDelivery(trx, email.document_id, state);
  };
  return failure
    ? { kind: 'failed', error: { code: failure.reason, message: failure.error }, retryable: false, commit }
    : { kind: 'succeeded', commit };
}

/** The plain-text message as escaped HTML paragraphs (never HTML from the caller). */
function htmlOf(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<p>${escaped
    .split(/\r?\n\r?\n/)
    .map((p) => p.replace(/\r?\n/g, '<br>'))
    .join('</p><p>')}</p>`;
}
