import type { AppServices } from '../app.js';
import type { DocumentRow } from '../documents/repository.js';
import type { RenderResult } from '../render/types.js';
import { AppError, isAppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { MAX_WARNINGS, type Warning } from '../shared/warnings.js';
import { baseRow, insertWithEvent, type RowContext, successColumns } from './document-rows.js';
import { assertWithinPlan, type Caller } from './plan-limits.js';
import type { PdfRenderPort } from './ports.js';
import { type PrepareDeps, prepareHtml } from './prepare.js';
import type { PdfRequest } from './schema.js';
import { decideStorage } from './storage-policy.js';

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
  await assertWithinPlan(services, caller, test, response);
  const prepared = await prepareHtml(deps, caller.teamId, body);
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
  };
  let result: RenderResult;
  try {
    result = await deps.renderer.render({
      html: prepared.html,
      css: prepared.css,
      page: prepared.page,
      watermark: test,
    });
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
  };
}
