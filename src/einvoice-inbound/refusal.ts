import type { ErrorDetails } from '../shared/errors.js';

/**
 * A received file that is not an e-invoice Quire can check (not XML or PDF, malformed XML, a PDF
 * without invoice XML, another root element, a stream past its cap): answered as `invalid_request` on
 * `content_base64` with this message, which says what was found, and `details` (e.g. the limit passed).
 * Thrown inside the worker and sent back as a plain value.
 */
export class InboundRefusal extends Error {
  override readonly name = 'InboundRefusal';

  constructor(
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
  }
}
