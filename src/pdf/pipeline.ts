import type { AppServices } from '../app.js';
import type { DocumentRow } from '../documents/repository.js';
import type { RenderResult } from '../render/types.js';
import { AppError, isAppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { MAX_WARNINGS, type Warning } from '../shared/warnings.js';
import { baseRow, insertWithEvent, type RowContext, successColumns } from './document-rows.js';
import { type EInvoicePlan, eInvoiceSummary, embedEInvoice, planEInvoice } from './einvoice.js';
import { assertWithinPlan, type Caller } from './plan-limits.js';
import type { PdfRenderPort } from './ports.js';
import { type PrepareDeps, prepareHtml } from './prepare.js';
import { sanitizeFilename } from './request-rules.js';
import type { PdfRequest } from './schema.js';
import { decideStorage, expiryFor } from './storage-policy.js';

export interface PipelineDeps extends PrepareDeps {
  services: AppServices;
  renderer: PdfRenderPort;
}

export interface GeneratedPdf {
  row: DocumentRow;
  pdf: Buffer;
  warnings: Warning[];
  blockedResources: string[];
  blockedCount: number;
  metadata: Record<string, unknown> | null;
  eInvoice: { standard: string; profile: string; xml_filename: string } | null;
}

/** Runs a synchronous POST /pdf render: every check before rendering, then render, store and record. */
export async function generatePdf(
  deps: PipelineDeps,
  caller: Caller,
  body: PdfRequest,
): Promise<GeneratedPdf> {
  const { services } = deps;
  const test = body.test === true;
  const response = body.response ?? 'binary';
  // Spec: an invalid e-invoice is refused before anything is rendered or counted.
  const einv = body.e_invoice === undefined ? null : planEInvoice(body.e_invoice);
  await assertWithinPlan(services, caller, test, response);
  if (einv?.kind === 'xml') return generateXml(deps, caller, body, einv);
  const prepared = await prepareHtml(deps, caller.teamId, body, einv);
  const lease = services.slots.tryAcquire(caller.teamId, caller.plan.render_concurrency, 'direct');
  if (!lease) {
    throw new AppError(
      'rate_limited',
      `This team already renders ${caller.plan.render_concurrency} PDF(s) at once.`,
      { reason: 'concurrency', limit: caller.plan.render_concurrency },
      { 'retry-after': '1' },
    );
  }
  const ctx: RowContext = {
    id: newId(),
    teamId: caller.teamId,
    createdAt: services.clock.now(),
    test,
    prepared,
    body,
    einv,
  };
  let result: RenderResult;
  try {
    result = await deps.renderer.render({
      html: prepared.html,
      css: prepared.css,
      page: prepared.page,
      watermark: test,
    });
    if (einv) result = { ...result, pdf: await embedEInvoice(result.pdf, einv, ctx.createdAt) };
  } catch (err) {
    await recordFailure(services, ctx, err);
    throw err;
  } finally {
    lease.release();
  }
  return finishSuccess(deps, caller, ctx, response, result);
}

/** A render that started and failed leaves a failed record (spec: Document status); a full queue does not. */
async function recordFailure(services: AppServices, ctx: RowContext, err: unknown): Promise<void> {
  if (isAppError(err) && err.code === 'service_busy') return;
  const code = isAppError(err) ? err.code : 'internal_error';
  const row: DocumentRow = {
    ...baseRow(ctx),
    status: 'failed',
    error_code: code,
    pages: null,
    bytes: null,
    expires_at: null,
    blob_key: null,
    stored_bytes: 0,
    counted: 0,
  };
  await insertWithEvent(services, row, ctx.body.metadata ?? null);
}

async function finishSuccess(
  deps: PipelineDeps,
  caller: Caller,
  ctx: RowContext,
  response: 'binary' | 'url',
  result: RenderResult,
): Promise<GeneratedPdf> {
  const { services } = deps;
  const decision = await decideStorage(services.db, {
    teamId: caller.teamId,
    plan: caller.plan,
    test: ctx.test,
    response,
    pdfBytes: result.pdf.length,
  });
  const blobKey = decision.store ? `documents/${ctx.id}.pdf` : null;
  if (blobKey) await services.blobs.put(blobKey, result.pdf);
  const row: DocumentRow = {
    ...baseRow(ctx),
    ...successColumns(result, { blobKey, createdAt: ctx.createdAt, plan: caller.plan, test: ctx.test }),
  };
  await insertWithEvent(services, row, ctx.body.metadata ?? null);
  return {
    row,
    pdf: result.pdf,
    warnings: [...ctx.prepared.warnings, ...result.warnings].slice(0, MAX_WARNINGS),
    blockedResources: result.blockedResources.slice(0, 10),
    blockedCount: result.blockedCount,
    metadata: ctx.body.metadata ?? null,
    eInvoice: ctx.einv ? eInvoiceSummary(ctx.einv) : null,
  };
}

/** XRechnung: the XML is the document; nothing is rendered (spec: E-invoices, Result). */
async function generateXml(
  deps: PipelineDeps,
  caller: Caller,
  body: PdfRequest,
  einv: EInvoicePlan,
): Promise<GeneratedPdf> {
  const { services } = deps;
  const test = body.test === true;
  const xml = Buffer.from(einv.xml, 'utf8');
  const createdAt = services.clock.now();
  const id = newId();
  const decision = await decideStorage(services.db, {
    teamId: caller.teamId,
    plan: caller.plan,
    test,
    response: body.response ?? 'binary',
    pdfBytes: xml.length,
  });
  const blobKey = decision.store ? `documents/${id}.xml` : null;
  if (blobKey) await services.blobs.put(blobKey, xml);
  const at = createdAt.toISOString();
  const row: DocumentRow = {
    id,
    team_id: caller.teamId,
    status: 'succeeded',
    mode: null,
    test: test ? 1 : 0,
    template_id: null,
    template_version: null,
    error_code: null,
    pages: null,
    bytes: xml.length,
    filename: body.filename === undefined ? einv.xmlFilename : sanitizeFilename(body.filename, '.xml'),
    content_type: 'application/xml',
    metadata_json: body.metadata ? JSON.stringify(body.metadata) : null,
    e_invoice_json: JSON.stringify(eInvoiceSummary(einv)),
    delivery_json: null,
    batch_id: null,
    blob_key: blobKey,
    stored_bytes: blobKey ? xml.length : 0,
    counted: test ? 0 : 1,
    expires_at: blobKey ? expiryFor(createdAt, caller.plan, test).toISOString() : null,
    thumbnail_key: null,
    created_at: at,
    updated_at: at,
  };
  await insertWithEvent(services, row, body.metadata ?? null);
  return {
    row,
    pdf: xml,
    warnings: [],
    blockedResources: [],
    blockedCount: 0,
    metadata: body.metadata ?? null,
    eInvoice: eInvoiceSummary(einv),
  };
}
