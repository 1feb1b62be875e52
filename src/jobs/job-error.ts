import type { ErrorCode } from '../shared/errors.js';

/**
 * Why an attempt failed: the API's code when the failure is one of its errors (a render's), else one of the
 * queue's own or its kinds' few codes.
 */
export type JobErrorCode =
  | ErrorCode
  /** The payload does not match its kind's schema (define-kind.ts): no attempt could help. */
  | 'invalid_payload'
  /** Its workers stopped during every attempt (each lease ran out). */
  | 'worker_lost'
  /** The worker shut down during the attempt and gave the job back. */
  | 'released'
  /** The SMTP server refused the email or could not be reached. */
  | 'send_failed'
  /** The document's file to attach is no longer stored. */
  | 'not_stored'
  /** A webhook target did not answer with 2xx. */
  | 'delivery_failed';

export interface JobError {
  code: JobErrorCode;
  message: string;
}

/**
 * A job's `last_error` as stored: `code: message`, the form a render's failures already had, so the column
 * stays plain text (its readers are people and tests, which look for the message in it).
 */
export function jobErrorText(error: JobError): string {
  return `${error.code}: ${error.message}`;
}
