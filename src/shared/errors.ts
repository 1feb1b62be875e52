/**
 * The one registry of error codes: HTTP status, meaning and retry advice.
 * Used by the error handler, the OpenAPI document and the /docs/errors page.
 */
export const ERROR_CODES = {
  invalid_request: {
    status: 400,
    meaning:
      'The request is malformed: invalid JSON, a missing, unknown or out-of-range field, an id that is not a UUID, or options that cannot be used together. HTTP 415 when the body is not JSON.',
    retry: 'Do not retry unchanged; fix the request.',
  },
  invalid_e_invoice: {
    status: 400,
    meaning: 'The e-invoice violates the EN 16931 / profile rules. details.issues lists {path, message}.',
    retry: 'Do not retry unchanged; fix the listed fields.',
  },
  invalid_api_key: {
    status: 401,
    meaning: 'The Authorization header is missing, malformed, or names an unknown or revoked key.',
    retry: 'Do not retry; send a valid key.',
  },
  unauthenticated: {
    status: 401,
    meaning: 'Dashboard only: the session cookie is missing, unknown or expired.',
    retry: 'Do not retry; sign in again.',
  },
  invalid_credentials: {
    status: 401,
    meaning: 'Dashboard only: the email or password is wrong (the answer does not say which).',
    retry: 'Do not retry unchanged; check the email and password.',
  },
  invalid_token: {
    status: 400,
    meaning:
      'Dashboard only: the sign-in, invitation, reset or verification token is unknown, used or expired.',
    retry: 'Do not retry; ask for a new link.',
  },
  plan_limit_reached: {
    status: 402,
    meaning: 'The plan allows no more of this: included documents without overage, or templates.',
    retry: 'Do not retry until the plan or usage changes.',
  },
  spending_cap_reached: {
    status: 402,
    meaning: 'The next overage document would exceed the spending cap.',
    retry: 'Do not retry until the cap is raised or the period ends.',
  },
  feature_not_available: {
    status: 402,
    meaning: 'The plan does not include this feature (webhooks).',
    retry: 'Do not retry; change plan.',
  },
  forbidden: {
    status: 403,
    meaning:
      'The team is suspended, a download signature is wrong, or a test key tried to change templates. Dashboard: the role or key is not enough (key, member and invitation management needs an admin live key or an admin or owner session; a test key or test-mode session never makes live keys or live webhooks; the spending cap needs an owner), the CSRF token is missing, or an invitation is for another email address. The message names the key or role needed.',
    retry: 'Do not retry unchanged.',
  },
  email_not_verified: {
    status: 403,
    meaning: 'deliver.email needs a verified account email.',
    retry: 'Do not retry until the email is verified.',
  },
  not_found: {
    status: 404,
    meaning: 'No route matches, or the webhook delivery does not exist or is still pending.',
    retry: 'Do not retry unchanged.',
  },
  template_not_found: {
    status: 404,
    meaning: 'The template is missing, deleted, in another workspace, or the version does not exist.',
    retry: 'Do not retry unchanged.',
  },
  document_not_found: {
    status: 404,
    meaning:
      'No such document or queued PDF in this workspace, or a live document read with a test key (also a `prepend`/`append` document_id, extension).',
    retry: 'Do not retry unchanged.',
  },
  webhook_not_found: {
    status: 404,
    meaning: "No such webhook endpoint for this key's mode.",
    retry: 'Do not retry unchanged.',
  },
  email_taken: {
    status: 409,
    meaning: 'Dashboard only: an account or member with this email already exists.',
    retry: 'Do not retry; sign in or use another email.',
  },
  idempotency_conflict: {
    status: 409,
    meaning: 'A request with the same Idempotency-Key is still being processed.',
    retry: 'Retry later with the same key.',
  },
  file_expired: {
    status: 410,
    meaning:
      'The retention period ended, the link expired, or the file of a replayed request (or of a `prepend`/`append` document, extension) is gone.',
    retry: 'Do not retry; request a fresh link or render again.',
  },
  document_too_large: {
    status: 413,
    meaning:
      'The HTML after Liquid (with CSS) is over 5 MB, the PDF has more than 50 pages, or is over 40 MB.',
    retry: 'Do not retry unchanged; split the document.',
  },
  payload_too_large: {
    status: 413,
    meaning: 'The request body is over 5 MB, or the rendered document is too large to render.',
    retry: 'Do not retry unchanged.',
  },
  template_render_error: {
    status: 422,
    meaning:
      'Liquid syntax error, unknown filter, bad filter input, template over 500 KB, or a render over 1 second or 64 MB. details.line and details.column when known.',
    retry: 'Do not retry unchanged; fix the template or data.',
  },
  render_failed: {
    status: 422,
    meaning: 'The document crashed the renderer.',
    retry: 'Do not retry unchanged.',
  },
  content_lost: {
    status: 422,
    meaning:
      'Print mode only: content would be cut off (for example a table inside a cell taller than a page), so no PDF is made. Fast mode splits such content.',
    retry: 'Do not retry unchanged; change the layout or use fast mode.',
  },
  idempotency_mismatch: {
    status: 422,
    meaning: 'The Idempotency-Key was used before with a different body.',
    retry: 'Do not retry; use a new key.',
  },
  rate_limited: {
    status: 429,
    meaning:
      'A budget is exhausted: requests per minute, per IP, render concurrency, template changes, previews, webhook sends, open jobs or test jobs.',
    retry:
      'Retry after the Retry-After header (seconds) when present; open_jobs/test_jobs_per_day carry none.',
  },
  storage_limit_reached: {
    status: 429,
    meaning:
      "The team's stored PDFs are at the plan limit, or test PDFs at 200 MB. details.scope is plan or test.",
    retry: 'Retry once stored files expire or are removed.',
  },
  email_limit_reached: {
    status: 429,
    meaning:
      "Emailing would exceed the daily email limits, or the team's invitation emails per 24 hours (details.limit = invitations_per_day, with Retry-After).",
    retry: 'Retry after 24 hours, or after Retry-After when present.',
  },
  internal_error: {
    status: 500,
    meaning:
      'A fault in the service. Nothing about it is disclosed; the request id identifies it in the logs.',
    retry: 'Retry once.',
  },
  service_busy: {
    status: 503,
    meaning:
      'Too many documents in preparation, the renderer is busy, the workers that read uploaded files or received e-invoices are busy (too many waiting, or the wait used up the time limit), or storing is paused for low disk.',
    retry: 'Retry after a few seconds with backoff.',
  },
  render_timeout: {
    status: 504,
    meaning: 'Rendering took longer than 30 seconds.',
    retry: 'Do not retry unchanged; simplify the document.',
  },
} as const satisfies Record<string, { status: number; meaning: string; retry: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export type ErrorDetails = Record<string, unknown>;

/**
 * An error the API reports to the caller as the spec's error object.
 * `headers` are added to the response (e.g. Retry-After).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  readonly headers: Record<string, string>;
  readonly status: number;

  constructor(
    code: ErrorCode,
    message: string,
    details?: ErrorDetails,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.headers = headers;
    this.status = ERROR_CODES[code].status;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}
