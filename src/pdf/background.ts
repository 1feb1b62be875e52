import { isPlanId } from '../accounts/plans.js';
import type { DocumentRow } from '../documents/repository.js';
import type { AuthContext } from '../http/auth-context.js';
import { enqueueRender } from '../jobs/enqueue-render.js';
import type { BackgroundRenderer, RenderAttempt } from '../jobs/render-job.js';
import type { RenderResult } from '../render/types.js';
import { isAppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { successColumns } from './document-rows.js';
import { type EInvoicePlan, eInvoiceSummary, embedEInvoice, planEInvoice } from './einvoice.js';
import type { PipelineDeps } from './pipeline.js';
import { assertWithinPlan, type Caller } from './plan-limits.js';
import { prepareHtml } from './prepare.js';
import { sanitizeFilename } from './request-rules.js';
import type { PdfRequest } from './schema.js';

/**
 * `async: true` (spec: POST /pdf → 202): everything that can fail synchronously (template lookup, Liquid,
 * page options) runs now; then the queued document and its job are written in one transaction.
 */
export function createPdfEnqueuer(deps: PipelineDeps, wake: () => void) {
  return async (auth: AuthContext, body: PdfRequest): Promise<{ id: string; created_at: string }> => {
    const einv = body.e_invoice === undefined ? null : planEInvoice(body.e_invoice);
    const prepared = einv?.kind === 'xml' ? null : await prepareHtml(deps, auth.team.id, body, einv);
    const queued = await enqueueRender(deps.services.db, deps.services.clock, {
      plan: auth.plan,
      teamId: auth.team.id,
      test: body.test === true,
      documentId: newId(),
      filename: prepared
        ? sanitizeFilename(prepared.filename, '.pdf')
        : sanitizeFilename(body.filename ?? einv?.defaultName ?? 'document', '.xml'),
      contentType: prepared ? 'application/pdf' : 'application/xml',
      templateId: prepared?.template?.id ?? null,
      metadata: body.metadata ?? null,
      batchId: null,
      request: body,
    });
    wake();
    return queued;
  };
}

async function callerOf(deps: PipelineDeps, teamId: string): Promise<Caller | null> {
  const team = await deps.services.db
    .selectFrom('teams')
    .select('plan')
    .where('id', '=', teamId)
    .executeTakeFirst();
  return team && isPlanId(team.plan) ? { teamId, plan: deps.services.plans[team.plan] } : null;
}

function failure(err: unknown, rendered: boolean): RenderAttempt {
  if (isAppError(err)) return { ok: false, code: err.code, message: err.message, rendered };
  return {
    ok: false,
    code: rendered ? 'render_failed' : 'internal_error',
    message: 'The render failed.',
    rendered,
  };
}

/** Renders a queued document in a worker; the background PDF is always stored (spec: POST /pdf async). */
export function createBackgroundRenderer(deps: PipelineDeps): BackgroundRenderer {
  return {
    async render({ document, request, signal }): Promise<RenderAttempt> {
      const body = request as PdfRequest;
      const test = document.test === 1;
      const caller = await callerOf(deps, document.team_id);
      if (!caller)
        return { ok: false, code: 'forbidden', message: 'The team no longer exists.', rendered: false };
      let einv: EInvoicePlan | null;
      let prepared: Awaited<ReturnType<typeof prepareHtml>> | null;
      try {
        await assertWithinPlan(deps.services, caller, test, 'binary');
        einv = body.e_invoice === undefined ? null : planEInvoice(body.e_invoice);
        prepared = einv?.kind === 'xml' ? null : await prepareHtml(deps, caller.teamId, body, einv);
      } catch (err) {
        return failure(err, false);
      }
      const createdAt = new Date(document.created_at);
      try {
        const file = prepared
          ? await renderPdf(deps, prepared, einv, test, createdAt, signal)
          : { pdf: Buffer.from(einv?.xml ?? '', 'utf8'), pages: null };
        const blobKey = `documents/${document.id}.${prepared ? 'pdf' : 'xml'}`;
        await deps.services.blobs.put(blobKey, file.pdf);
        const columns = successColumns({ pdf: file.pdf, pages: file.pages ?? 0 } as RenderResult, {
          blobKey,
          createdAt,
          plan: caller.plan,
          test,
        });
        const changes: Partial<DocumentRow> = {
          ...columns,
          pages: file.pages,
          mode: prepared?.page.mode ?? null,
          template_version: prepared?.template?.version ?? null,
          e_invoice_json: einv ? JSON.stringify(eInvoiceSummary(einv)) : null,
        };
        return { ok: true, changes };
      } catch (err) {
        return failure(err, true);
      }
    },
  };
}

async function renderPdf(
  deps: PipelineDeps,
  prepared: NonNullable<Awaited<ReturnType<typeof prepareHtml>>>,
  einv: EInvoicePlan | null,
  test: boolean,
  createdAt: Date,
  signal: AbortSignal,
): Promise<{ pdf: Buffer; pages: number }> {
  const result = await deps.renderer.render({
    html: prepared.html,
    css: prepared.css,
    page: prepared.page,
    watermark: test,
    signal,
  });
  const pdf = einv ? await embedEInvoice(result.pdf, einv, createdAt) : result.pdf;
  return { pdf, pages: result.pages };
}
