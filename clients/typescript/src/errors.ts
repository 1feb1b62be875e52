import type { components } from './schema.js';

type ErrorBody = components['schemas']['Error'];

/**
 * The one error every method throws: an error answer of the API (the spec's error object, with the request id
 * to quote), or a failure the client itself detects (`status` 0: a webhook signature that does not verify, a
 * wait that timed out, an answer that is not the API's).
 */
export class QuireError extends Error {
  /** HTTP status of the answer; 0 when the client raised the error without an answer. */
  readonly status: number;
  /** Stable code for programs (https://…/docs/errors lists them), e.g. `invalid_request`, `template_not_found`. */
  readonly code: string;
  readonly docsUrl: string;
  /** E.g. `{ field: 'data.items[0].price' }` for `invalid_request`. */
  readonly details: Record<string, unknown> | undefined;
  /** The answer's `x-request-id`: quote it when reporting a problem. */
  readonly requestId: string | null;

  constructor(status: number, body: ErrorBody, requestId: string | null) {
    super(`${body.error.code}: ${body.error.message}`);
    this.name = 'QuireError';
    this.status = status;
    this.code = body.error.code;
    this.docsUrl = body.error.docs_url;
    this.details = body.error.details;
    this.requestId = requestId;
  }
}

/** An error the client raises itself (no answer to read). */
export function clientError(code: string, message: string, details?: Record<string, unknown>): QuireError {
  return new QuireError(0, { error: { code, message, docs_url: '', ...(details ? { details } : {}) } }, null);
}

function isErrorBody(value: unknown): value is ErrorBody {
  const error = (value as { error?: { code?: unknown } } | null)?.error;
  return typeof error?.code === 'string';
}

/** The QuireError of an error answer; an answer without the error object becomes `unexpected_response`. */
export function errorFrom(response: Response, body: unknown): QuireError {
  const requestId = response.headers.get('x-request-id');
  if (isErrorBody(body)) return new QuireError(response.status, body, requestId);
  const fallback = {
    error: {
      code: 'unexpected_response',
      message: `HTTP ${response.status} without an error object`,
      docs_url: '',
    },
  };
  return new QuireError(response.status, fallback, requestId);
}
