import { XML_STANDARDS } from '../einvoice/index.js';
import { checkCaptureRules } from '../production/index.js';
import { AppError } from '../shared/errors.js';
import type { PdfRequest } from './schema.js';

const METADATA_MAX_BYTES = 8 * 1024;

/** The rules of POST /pdf that one field's schema cannot express (spec: POST /pdf rules 1, css, metadata). */
export function checkPdfRequestRules(body: PdfRequest): void {
  checkCaptureRules(body);
  const hasTemplate = body.template_id !== undefined;
  const hasHtml = body.html !== undefined;
  if (hasTemplate && hasHtml)
    throw new AppError('invalid_request', 'Send either "template_id" or "html", not both.');
  if (!hasTemplate && !hasHtml && body.e_invoice === undefined && body.source_url === undefined) {
    throw new AppError(
      'invalid_request',
      'Send one of "template_id", "html" or "source_url" (or "e_invoice").',
    );
  }
  if (body.css !== undefined && !hasHtml) {
    throw new AppError(
      'invalid_request',
      hasTemplate ? '"css" cannot be used with "template_id".' : '"css" needs "html".',
    );
  }
  if (body.template_version !== undefined && !hasTemplate) {
    throw new AppError('invalid_request', '"template_version" needs "template_id".');
  }
  const standard = body.e_invoice?.standard;
  if (body.deliver !== undefined && typeof standard === 'string' && Object.hasOwn(XML_STANDARDS, standard)) {
    throw new AppError(
      'invalid_request',
      `"deliver" cannot be used with e_invoice.standard ${standard}: its result is XML, not a PDF.`,
    );
  }
  if (body.sign !== undefined && typeof standard === 'string' && standard.startsWith('xrechnung-')) {
    throw new AppError(
      'invalid_request',
      '"sign" cannot be used with an XRechnung e-invoice (it is XML, not a PDF): use a Factur-X or ZUGFeRD standard to sign.',
      { field: 'sign' },
    );
  }
  if (body.metadata !== undefined && Buffer.byteLength(JSON.stringify(body.metadata)) > METADATA_MAX_BYTES) {
    throw new AppError('invalid_request', '"metadata" is larger than 8 KB as JSON.');
  }
}
