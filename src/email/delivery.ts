import { Type } from 'typebox';
import { EMAILS_PER_ADDRESS_PER_DAY } from '../accounts/index.js';
import { jobKind } from '../jobs/index.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { type Db, lockKey } from '../storage/index.js';
import { addressKey } from './address.js';
import { TRANSITIONS } from './states.js';
import type { EmailDeliveriesTable } from './tables.js';

/** `deliver.email` as a request sends it (spec: POST /pdf `deliver`). */
export interface EmailRequest {
  to: string;
  subject?: string;
  message?: string;
  reply_to?: string;
}

/** A document's `delivery` object (spec: Document `delivery`). */
export interface DeliveryState {
  email: { status: EmailDeliveriesTable['status']; reason?: NonNullable<EmailDeliveriesTable['reason']> };
}

/** The send job of a queued email (send-job.ts), queued through EmailDeliveryDeps.enqueueSend. */
export const EMAIL_JOB = jobKind('email', Type.Object({ emailId: Type.String() }));
const DAY_MS = 24 * 60 * 60 * 1000;

export interface EmailDeliveryDeps {
  db: Db;
  clock: Clock;
  /** Whether the team's account email is verified, or null when the team is gone. */
  emailVerified(teamId: string): Promise<boolean | null>;
  /** Queues the send job inside the caller's transaction (the shared job queue). */
  enqueueSend(trx: Db, input: { test: boolean; emailId: string }): Promise<void>;
}

/** The team's daily email budget and the per-address budget (spec: Limits, emails). */
export interface EmailBudget {
  teamId: string;
  emailsPerDay: number;
}

/** A finished document's email, handed over in the transaction that records the document. */
export interface DocumentEmail {
  budget: EmailBudget;
  documentId: string;
  test: boolean;
  /** False when the document's file is not kept: nothing to attach. */
  stored: boolean;
  filename: string;
  email: EmailRequest;
}

/**
 * deliver.email: checks before anything is rendered, and the queued email written in the transaction
 * that records the document. Test documents send real (watermarked) emails and count like live ones:
 * the limits protect the recipients, whichever key asked.
 */
export class EmailDelivery {
  constructor(private readonly deps: EmailDeliveryDeps) {}

  /** email_not_verified (403) or email_limit_reached (429) for `count` more emails to these addresses. */
  async assertAllowed(budget: EmailBudget, addresses: readonly string[]): Promise<void> {
    const verified = await this.deps.emailVerified(budget.teamId);
    if (!verified) {
      throw new AppError(
        'email_not_verified',
        "deliver.email needs a verified account email; verify the team's email first.",
      );
    }
    const over = await this.overLimit(this.deps.db, budget, addresses);
    if (over) throw new AppError('email_limit_reached', over);
  }

  /**
   * The email of a finished document: `queued` (and its send job), or at once `suppressed`, or `failed`
   * with `not_stored` (nothing to attach) or `over_limit` (the budget ran out while the document waited).
   */
  async queue(trx: Db, input: DocumentEmail): Promise<DeliveryState> {
    const address = addressKey(input.email.to);
    const state = await this.decide(trx, input.budget, address, input.stored);
    const id = newId();
    const now = this.deps.clock.now().toISOString();
    const queued = state.email.status === TRANSITIONS.queue.to;
    await trx
      .insertInto('email_deliveries')
      .values({
        id,
        team_id: input.budget.teamId,
        document_id: input.documentId,
        address,
        subject: input.email.subject ?? `Your document ${input.filename}`,
        message: input.email.message ?? `Please find the document ${input.filename} attached.`,
        reply_to: input.email.reply_to ?? null,
        status: state.email.status,
        reason: state.email.reason ?? null,
        counted: queued ? 1 : 0,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    if (queued) await this.deps.enqueueSend(trx, { test: input.test, emailId: id });
    return state;
  }

  private async decide(
    trx: Db,
    budget: EmailBudget,
    address: string,
    stored: boolean,
  ): Promise<DeliveryState> {
    if (await this.isSuppressed(trx, budget.teamId, address))
      return { email: { status: TRANSITIONS.suppress.to } };
    if (!stored) return { email: { status: TRANSITIONS.refuse.to, reason: 'not_stored' } };
    // Held until this transaction commits the delivery: on PostgreSQL concurrent decisions of one team would
    // otherwise each count the same budget as free (SQLite serializes its writers anyway).
    await lockKey(trx, `email.budget:${budget.teamId}`);
    if (await this.overLimit(trx, budget, [address]))
      return { email: { status: TRANSITIONS.refuse.to, reason: 'over_limit' } };
    return { email: { status: TRANSITIONS.queue.to } };
  }

  private async overLimit(db: Db, budget: EmailBudget, addresses: readonly string[]): Promise<string | null> {
    const since = new Date(this.deps.clock.now().getTime() - DAY_MS).toISOString();
    const counted = db
      .selectFrom('email_deliveries')
      .where('team_id', '=', budget.teamId)
      .where('counted', '=', 1)
      .where('created_at', '>', since);
    const team = await counted.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (Number(team.n) + addresses.length > budget.emailsPerDay) {
      return `The team's ${budget.emailsPerDay} emails in 24 hours are used up.`;
    }
    const perAddress = new Map<string, number>();
    for (const raw of addresses) {
      const a = addressKey(raw);
      perAddress.set(a, (perAddress.get(a) ?? 0) + 1);
    }
    for (const [address, more] of perAddress) {
      const sent = await counted
        .where('address', '=', address)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(sent.n) + more > EMAILS_PER_ADDRESS_PER_DAY) {
        return `At most ${EMAILS_PER_ADDRESS_PER_DAY} emails a day go to the same address (${address}).`;
      }
    }
    return null;
  }

  private async isSuppressed(db: Db, teamId: string, address: string): Promise<boolean> {
    const row = await db
      .selectFrom('email_suppressions')
      .select('address')
      .where('team_id', '=', teamId)
      .where('address', '=', address)
      .executeTakeFirst();
    return row !== undefined;
  }
}
