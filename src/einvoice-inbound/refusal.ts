/**
 * A received file that is not an e-invoice Quire can check (not XML or PDF, malformed XML, a PDF
 * without invoice XML, another root element): answered as `invalid_request` on `content_base64` with
 * this message, which says what was found. Thrown inside the worker and sent back as a plain value.
 */
export class InboundRefusal extends Error {
  override readonly name = 'InboundRefusal';
}
