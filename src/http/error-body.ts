import type { ErrorCode, ErrorDetails } from '../shared/errors.js';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; docs_url: string; details?: ErrorDetails };
}

/** The spec's error object; `docs_url` points at the service's own error page. */
export function errorBody(
  publicUrl: string,
  code: ErrorCode,
  message: string,
  details?: ErrorDetails,
): ErrorBody {
  const body: ErrorBody = { error: { code, message, docs_url: `${publicUrl}/docs/errors#${code}` } };
  if (details && Object.keys(details).length > 0) body.error.details = details;
  return body;
}
