import type { AppServices } from '../app.js';
import type { DocumentRow } from '../documents/repository.js';
import { insertDocument } from '../documents/repository.js';
import type { AuthContext } from '../http/auth-context.js';
import type { PageOptions, RenderResult } from '../render/types.js';
import { AppError, isAppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { MAX_WARNINGS, type Warning } from '../shared/warnings.js';
import { assertWithinPlan } from './plan-limits.js';
import type { LiquidPort, PdfRenderPort, ResolvedTemplate, TemplatePort, TemplateSettings } from './ports.js';
import { sanitizeFilename } from './request-rules.js';
import type { PdfRequest } from './schema.js';
import { decideStorage, expiryFor } from './storage-policy.js';

const MAX_HTML_BYTES = 5 * 1024 * 1024;

export type PageOptionsResolver = (
  request: PdfRequest,
  template: TemplateSettings | null,
  fallbackMode: 'fast' | 'print',
) => PageOptions;

export interface PipelineDeps {
  services: AppServices;
  renderer: PdfRenderPort;
  liquid: LiquidPort;
  templates: TemplatePort | null;
  pageOptions: PageOptionsResolver;
  /** merge_data semantics (spec: POST /pdf merge_data), owned by the templates capability. */
  mergeData: (data: Record<string, unknown>, merge: Record<string, unknown>) => Record<string, unknown>;
}

function withMerge(
  deps: PipelineDeps,
  data: Record<string, unknown>,
  merge: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return merge === undefined ? data : deps.mergeData(data, merge);
}

export interface GeneratedPdf {
  row: DocumentRow;
  pdf: Buffer;
  warnings: Warning[];
  blockedResources: string[];
  blockedCount: number;
  metadata: Record<string, unknown> | null;
}

interface PreparedHtml {
  html: string;
  css: string | null;
  warnings: Warning[];
  template: ResolvedTemplate | null;
  page: PageOptions;
  filename: string;
}

/** Liquid → HTML with page options and filename, from raw html or a stored template. Nothing is recorded yet. */
async function prepareHtml(deps: PipelineDeps, auth: AuthContext, body: PdfRequest): Promise<PreparedHtml> {
  if (body.template_id !== undefined) {
    if (!deps.templates)
      throw new AppError('template_not_found', `No template ${body.template_id} in this workspace.`);
    const template = await deps.templates.resolve(auth.team.id, body.template_id, body.template_version);
    const page = deps.pageOptions(body, template.settings, 'print');
    const data = withMerge(deps, body.data ?? template.sampleData ?? {}, body.merge_data);
    const rendered = template.render(data);
    return { ...rendered, css: template.css, template, page, filename: body.filename ?? template.name };
  }
  const page = deps.pageOptions(body, null, 'fast');
  const source = body.html ?? '';
  const rendered =
    body.data !== undefined
      ? deps.liquid.renderSource(source, withMerge(deps, body.data, body.merge_data))
      : { html: source, warnings: [] };
  return { ...rendered, css: body.css ?? null, template: null, page, filename: body.filename ?? 'document' };
}

/** Runs a synchronous POST /pdf render: every check before rendering, then render, store and record. */
export async function generatePdf(
  deps: PipelineDeps,
  auth: AuthContext,
  body: PdfRequest,
): Promise<GeneratedPdf> {
  const { services } = deps;
  const test = auth.mode === 'test' || body.test === true;
  const response = body.response ?? 'binary';
  await assertWithinPlan(services, auth, test, response);
  const prepared = await prepareHtml(deps, auth, body);
  if (Buffer.byteLength(prepared.html) + Buffer.byteLength(prepared.css ?? '') > MAX_HTML_BYTES) {
    throw new AppError('document_too_large', 'The HTML after Liquid, with the CSS, is larger than 5 MB.');
  }
  const lease = services.slots.tryAcquire(auth.team.id, auth.plan.render_concurrency, 'direct');
  if (!lease) {
    throw new AppError(
      'rate_limited',
      `This team already renders ${auth.plan.render_concurrency} PDF(s) at once.`,
      { reason: 'concurrency', limit: auth.plan.render_concurrency },
      { 'retry-after': '1' },
    );
  }
  const id = newId();
  const createdAt = services.clock.now();
  let result: RenderResult;
  try {
    result = await deps.renderer.render({
      html: prepared.html,
      css: prepared.css,
      page: prepared.page,
      watermark: test,
    });
  } catch (err) {
    await recordFailure(deps, auth, { id, createdAt, test, prepared, body, err });
    throw err;
  } finally {
    lease.release();
  }
  return finishSuccess(deps, auth, { id, createdAt, test, response, prepared, body, result });
}

/** A render that started and failed leaves a failed record (spec: Document status); a full queue does not. */
async function recordFailure(
  deps: PipelineDeps,
  auth: AuthContext,
  ctx: { id: string; createdAt: Date; test: boolean; prepared: PreparedHtml; body: PdfRequest; err: unknown },
): Promise<void> {
  if (isAppError(ctx.err) && ctx.err.code === 'service_busy') return;
  const code = isAppError(ctx.err) ? ctx.err.code : 'internal_error';
  await insertDocument(deps.services.db, {
    ...baseRow(auth, ctx),
    status: 'failed',
    error_code: code,
    pages: null,
    bytes: null,
    expires_at: null,
    blob_key: null,
    stored_bytes: 0,
    counted: 0,
  });
}

function baseRow(
  auth: AuthContext,
  ctx: { id: string; createdAt: Date; test: boolean; prepared: PreparedHtml; body: PdfRequest },
): Omit<
  DocumentRow,
  'status' | 'error_code' | 'pages' | 'bytes' | 'expires_at' | 'blob_key' | 'stored_bytes' | 'counted'
> {
  const at = ctx.createdAt.toISOString();
  return {
    id: ctx.id,
    team_id: auth.team.id,
    mode: ctx.prepared.page.mode,
    test: ctx.test ? 1 : 0,
    template_id: ctx.prepared.template?.id ?? null,
    template_version: ctx.prepared.template?.version ?? null,
    filename: sanitizeFilename(ctx.prepared.filename, '.pdf'),
    content_type: 'application/pdf',
    metadata_json: ctx.body.metadata ? JSON.stringify(ctx.body.metadata) : null,
    e_invoice_json: null,
    delivery_json: null,
    batch_id: null,
    thumbnail_key: null,
    created_at: at,
    updated_at: at,
  };
}

async function finishSuccess(
  deps: PipelineDeps,
  auth: AuthContext,
  ctx: {
    id: string;
    createdAt: Date;
    test: boolean;
    response: 'binary' | 'url';
    prepared: PreparedHtml;
    body: PdfRequest;
    result: RenderResult;
  },
): Promise<GeneratedPdf> {
  const { services } = deps;
  const { pdf } = ctx.result;
  const decision = await decideStorage(services.db, {
    teamId: auth.team.id,
    plan: auth.plan,
    test: ctx.test,
    response: ctx.response,
    pdfBytes: pdf.length,
  });
  const blobKey = decision.store ? `documents/${ctx.id}.pdf` : null;
  if (blobKey) await services.blobs.put(blobKey, pdf);
  const row: DocumentRow = {
    ...baseRow(auth, ctx),
    status: 'succeeded',
    error_code: null,
    pages: ctx.result.pages,
    bytes: pdf.length,
    expires_at: blobKey ? expiryFor(ctx.createdAt, auth.plan, ctx.test).toISOString() : null,
    blob_key: blobKey,
    stored_bytes: blobKey ? pdf.length : 0,
    counted: ctx.test ? 0 : 1,
  };
  await insertDocument(services.db, row);
  return {
    row,
    pdf,
    warnings: [...ctx.prepared.warnings, ...ctx.result.warnings].slice(0, MAX_WARNINGS),
    blockedResources: ctx.result.blockedResources.slice(0, 10),
    blockedCount: ctx.result.blockedCount,
    metadata: ctx.body.metadata ?? null,
  };
}
