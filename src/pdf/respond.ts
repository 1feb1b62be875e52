import type { FastifyReply } from 'fastify';
import type { DocumentJson, DocumentRow } from '../documents/index.js';
import type { Produced } from '../production/index.js';
import type { Warning } from '../shared/warnings.js';

const WARNINGS_HEADER_MAX = 4000;

/** Header values must be Latin-1: JSON text with every non-ASCII character as a `\u` escape. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `x-warnings`: a JSON array kept under 4 KB; warnings that do not fit are left out (spec: POST /pdf responses). */
export function warningsHeader(warnings: Warning[]): string {
  const kept: Warning[] = [];
  for (const w of warnings) {
    if (asciiJson([...kept, w]).length >= WARNINGS_HEADER_MAX) break;
    kept.push(w);
  }
  return asciiJson(kept);
}

/** A produced document that was recorded (POST /pdf direct). */
export type RecordedDocument = Produced & { row: DocumentRow };

export function sendBinary(reply: FastifyReply, result: RecordedDocument): FastifyReply {
  if (result.eInvoice) reply.header('x-e-invoice', `${result.eInvoice.standard}/${result.eInvoice.profile}`);
  // An XRechnung answer is XML: nothing was paginated, so there is no x-pages header.
  if (result.pages !== null) reply.header('x-pages', String(result.pages));
  return reply
    .header('content-type', result.row.content_type)
    .header('content-disposition', `attachment; filename="${result.row.filename}"`)
    .header('x-document-id', result.row.id)
    .header('x-blocked-resources', String(Math.min(10, result.blockedCount)))
    .header('x-warnings', warningsHeader(result.warnings))
    .header('cache-control', 'no-store')
    .send(result.file);
}

/** The `response: url` answer: the Document plus the request's own fields (spec: POST /pdf responses). */
export function urlBody(result: RecordedDocument, present: (row: DocumentRow) => DocumentJson) {
  return {
    ...present(result.row),
    filename: result.row.filename,
    metadata: result.metadata,
    warnings: result.warnings,
    blocked_resources: result.blockedResources,
    ...(result.eInvoice ? { e_invoice: result.eInvoice } : {}),
  };
}

function eInvoiceOf(row: DocumentRow): RecordedDocument['eInvoice'] {
  return row.e_invoice_json ? (JSON.parse(row.e_invoice_json) as RecordedDocument['eInvoice']) : null;
}

/** A replayed document as produced the first time, minus warnings and blocked resources. */
function replayed(row: DocumentRow, file: Buffer): RecordedDocument {
  return {
    file,
    contentType: row.content_type === 'application/xml' ? 'application/xml' : 'application/pdf',
    filename: row.filename,
    pages: row.pages,
    warnings: [],
    blockedResources: [],
    blockedCount: 0,
    eInvoice: eInvoiceOf(row),
    metadata: row.metadata_json ? (JSON.parse(row.metadata_json) as Record<string, unknown>) : null,
    row,
  };
}

export function replayBinary(reply: FastifyReply, row: DocumentRow, file: Buffer): FastifyReply {
  return sendBinary(reply, replayed(row, file));
}

export function replayUrl(row: DocumentRow, present: (row: DocumentRow) => DocumentJson) {
  return urlBody(replayed(row, Buffer.alloc(0)), present);
}
