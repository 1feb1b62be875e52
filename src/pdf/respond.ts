import type { FastifyReply } from 'fastify';
import { presentDocument } from '../documents/present.js';
import type { LinkSigner } from '../documents/signed-links.js';
import type { Warning } from '../shared/warnings.js';
import type { GeneratedPdf } from './pipeline.js';

const WARNINGS_HEADER_MAX = 4000;

/** `x-warnings`: a JSON array kept under 4 KB; warnings that do not fit are left out (spec: POST /pdf responses). */
export function warningsHeader(warnings: Warning[]): string {
  const kept: Warning[] = [];
  for (const w of warnings) {
    if (JSON.stringify([...kept, w]).length >= WARNINGS_HEADER_MAX) break;
    kept.push(w);
  }
  return JSON.stringify(kept);
}

export function sendBinary(reply: FastifyReply, result: GeneratedPdf): FastifyReply {
  if (result.eInvoice) reply.header('x-e-invoice', `${result.eInvoice.standard}/${result.eInvoice.profile}`);
  return reply
    .header('content-type', result.row.content_type)
    .header('content-disposition', `attachment; filename="${result.row.filename}"`)
    .header('x-document-id', result.row.id)
    .header('x-pages', String(result.row.pages ?? 0))
    .header('x-blocked-resources', String(Math.min(10, result.blockedCount)))
    .header('x-warnings', warningsHeader(result.warnings))
    .header('cache-control', 'no-store')
    .send(result.pdf);
}

export function urlBody(
  result: GeneratedPdf,
  links: { signer: LinkSigner; publicUrl: string; nowMs: number },
) {
  return {
    ...presentDocument(result.row, links),
    filename: result.row.filename,
    metadata: result.metadata,
    warnings: result.warnings,
    blocked_resources: result.blockedResources,
    ...(result.eInvoice ? { e_invoice: result.eInvoice } : {}),
  };
}
