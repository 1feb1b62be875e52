import type { EmailStatus } from './states.js';

/**
 * deliver.email (spec: Email delivery status; Limits, emails): one row per email a document asked for.
 * Rows of the last 24 hours with `counted = 1` are what the daily limits count.
 */
export interface EmailDeliveriesTable {
  id: string;
  team_id: string;
  document_id: string;
  /** Lower-cased recipient. */
  address: string;
  subject: string;
  message: string;
  reply_to: string | null;
  status: EmailStatus;
  reason: 'over_limit' | 'not_stored' | 'send_failed' | null;
  /** 1 when the email counts against the daily limits (it was or will be sent). */
  counted: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** Addresses a team's emails are no longer sent to (a permanent SMTP refusal; operators can remove them). */
export interface EmailSuppressionsTable {
  team_id: string;
  address: string;
  reason: string;
  created_at: string;
}

export interface EmailTables {
  email_deliveries: EmailDeliveriesTable;
  email_suppressions: EmailSuppressionsTable;
}
