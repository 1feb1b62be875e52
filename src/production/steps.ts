import {
  type AccessibilityReport,
  checkLanguage,
  type FinishingContribution,
  type FinishingPlan,
  finishingOptionsOf,
  mergeFinishing,
  planFinishing,
  type ResolvedFinishing,
  reportAccessibility,
  resolveFinishing,
} from '../finishing/index.js';
import type { RenderResult } from '../render/index.js';
import { htmlLanguage } from '../render/index.js';
import { sanitizeFilename } from '../shared/filenames.js';
import type { SlotLease } from '../shared/team-slots.js';
import { MAX_WARNINGS } from '../shared/warnings.js';
import type { Admitted } from './admission.js';
import { type EInvoicePlan, eInvoiceFinishing, eInvoiceSummary, planEInvoice } from './einvoice.js';
import type { Caller, DocumentRequest, TemplatePort } from './ports.js';
import { type PreparedHtml, prepareHtml } from './prepare.js';
import type { ProduceDeps } from './produce-deps.js';
import type { Policy } from './purpose.js';
import { type Produced, roundedTimings } from './record.js';
import { acquireSlot } from './render-slot.js';

/**
 * The named steps of making a document, in their order (make.ts runs them):
 *   check → admit → slot → prepare → resolve → render → finish → store → record (record.ts)
 * Each takes what the earlier ones made and returns its own result; a step refuses by throwing, and make.ts
 * says which step it was.
 */

/** What one piece of work is: the request, for whom, and the policy its purpose chose. */
export interface Work {
  caller: Caller;
  request: DocumentRequest;
  test: boolean;
  policy: Policy;
  /**
   * Waits up to `ms` for a free slot instead of answering `rate_limited` at once, until `stop` aborts
   * (shutdown): thumbnails, which a dashboard page asks for many at a time. Absent: no wait.
   */
  slotWait?: { ms: number; stop: AbortSignal } | undefined;
  signal?: AbortSignal | undefined;
  /** Resolves `template_id` instead of the stored templates (the editor's unsaved draft). */
  templates?: TemplatePort | undefined;
  /** The queued document this run renders (absent: direct work). */
  queued?: { id: string; createdAt: Date } | undefined;
}

/** check: the e-invoice and every finishing combination, before anything is counted or rendered. */
export interface Checked {
  einv: EInvoicePlan | null;
  /** What the e-invoice adds to the finishing (its XML, PDF/A-3). */
  contribution: FinishingContribution | null;
  /** Null for XRechnung XML: nothing is rendered or finished. */
  finishing: FinishingPlan | null;
}

export async function check(request: DocumentRequest): Promise<Checked> {
  const einv = request.e_invoice === undefined ? null : await planEInvoice(request.e_invoice);
  if (einv?.kind === 'xml') return { einv, contribution: null, finishing: null };
  const contribution = einv ? await eInvoiceFinishing(einv, builtInTemplate(request)) : null;
  return { einv, contribution, finishing: planFinishing(request, contribution) };
}

/** An e-invoice without its own html or template is drawn by Quire's built-in invoice template. */
function builtInTemplate(request: DocumentRequest): boolean {
  return request.html === undefined && request.template_id === undefined;
}

/**
 * admit: spec: plan, storage and email refusals come before anything is rendered or counted. A direct
 * document is admitted (its count reserved); a queued one was admitted when it was queued, and is only
 * checked again for what may have run out while it waited.
 */
export async function admit(deps: Pick<ProduceDeps, 'admission'>, work: Work): Promise<Admitted | null> {
  const email = work.request.deliver?.email;
  const request = {
    caller: work.caller,
    test: work.test,
    storage: work.policy.storage,
    emails: email ? [email.to] : [],
  };
  if (work.queued) {
    await deps.admission.recheck(request);
    return null;
  }
  return deps.admission.admit({ ...request, count: 1 });
}

/** slot: a lease on one of the team's render slots (spec: PDFs rendering at once per team). */
export function slot(deps: Pick<ProduceDeps, 'slots'>, work: Work): Promise<SlotLease> {
  return acquireSlot(deps.slots, {
    caller: work.caller,
    slot: work.policy.slot,
    slotWait: work.slotWait,
    signal: work.signal,
    queued: work.queued,
  });
}

/** prepare: the HTML (template, Liquid, page options) and the finishing plan with the template's settings. */
export interface Prepared {
  html: PreparedHtml;
  finishing: FinishingPlan;
}

export async function prepare(deps: ProduceDeps, work: Work, checked: Checked): Promise<Prepared> {
  const prepareDeps = work.templates ? { ...deps, templates: work.templates } : deps;
  const html = await prepareHtml(prepareDeps, work.caller.teamId, work.request, checked.einv);
  const finishing = work.policy.finishing(withTemplateFinishing(checked, work.request, html));
  checkLanguage(finishing, htmlLanguage(html.html));
  return { html, finishing };
}

/**
 * The plan made before anything was counted covers the request; a template's own finishing settings (the
 * request's fields over them) are known once it is resolved, and are checked here, still before rendering.
 */
function withTemplateFinishing(
  checked: Checked,
  request: DocumentRequest,
  html: PreparedHtml,
): FinishingPlan {
  const settings = html.template?.settings;
  if (!settings || Object.keys(finishingOptionsOf(settings)).length === 0)
    return checked.finishing ?? planFinishing({});
  return planFinishing(mergeFinishing(settings, request), checked.contribution);
}

/**
 * resolve: what the finishing steps need from outside, looked up before rendering: a wrong merge source or
 * an unknown or expired certificate costs no render (the key lives only as long as this document); qpdf
 * checks the merge sources beside the render. A queued document's sources are checked before it turns
 * processing.
 */
export async function resolve(
  deps: Pick<ProduceDeps, 'clock' | 'storedPdfs' | 'certificates'>,
  work: Work,
  prepared: Prepared,
): Promise<ResolvedFinishing> {
  const resolved = await resolveFinishing(prepared.finishing, {
    teamId: work.caller.teamId,
    test: work.test,
    watermark: work.policy.watermark,
    now: deps.clock.now(),
    storedPdfs: deps.storedPdfs,
    signingKeys: deps.certificates,
  });
  if (work.queued) await resolved.ready();
  return resolved;
}

/** render: Chromium, with the finishing's input checks beside it. */
export interface Rendered {
  result: RenderResult;
  renderMs: number;
}

export async function render(
  deps: Pick<ProduceDeps, 'renderer'>,
  work: Work,
  prepared: Prepared,
  resolved: ResolvedFinishing,
): Promise<Rendered> {
  const { html, finishing } = prepared;
  const started = performance.now();
  const result = await resolved.alongside(
    (signal) =>
      deps.renderer.render({
        html: html.html,
        css: html.css,
        page: html.page,
        watermark: work.policy.watermark,
        title: html.template?.name ?? (html.filename || 'document'),
        tagged: finishing.tagged,
        outline: finishing.outline,
        tenant: work.caller.teamId,
        ...(signal ? { signal } : {}),
        ...(html.localResources ? { localResources: html.localResources } : {}),
        ...(html.sourceUrl === null ? {} : { sourceUrl: html.sourceUrl }),
        ...(work.request.wait_for ? { waitFor: work.request.wait_for } : {}),
      }),
    work.signal,
  );
  return { result, renderMs: performance.now() - started };
}

/** finish: the finishing steps over the rendered PDF; the answer with its name, pages and warnings. */
export async function finish(
  work: Work,
  checked: Checked,
  prepared: Prepared,
  resolved: ResolvedFinishing,
  rendered: Rendered,
  createdAt: Date,
): Promise<Produced> {
  const { result, renderMs } = rendered;
  const html = prepared.html;
  const pages = await resolved.pages(result.pages);
  const file = await resolved.finish(result.pdf, { createdAt });
  return {
    file,
    contentType: 'application/pdf',
    filename: sanitizeFilename(html.filename || sourceFilename(html, result.title), '.pdf'),
    pages,
    warnings: [...html.warnings, ...result.warnings].slice(0, MAX_WARNINGS),
    blockedResources: result.blockedResources.slice(0, 10),
    blockedCount: result.blockedCount,
    eInvoice: checked.einv ? eInvoiceSummary(checked.einv) : null,
    metadata: work.request.metadata ?? null,
    row: null,
    timings: roundedTimings(renderMs, result.timings),
    accessibility: await accessibilityOf(work.request, prepared.finishing, file),
  };
}

/**
 * The report a request asked for (`accessibility_report`), checked on the finished file itself; an encrypted
 * file (`protect`) is not read, and says so by its absence.
 */
function accessibilityOf(
  request: DocumentRequest,
  finishing: FinishingPlan,
  pdf: Buffer,
): Promise<AccessibilityReport | null> {
  if (request.accessibility_report !== true || finishing.protect) return Promise.resolve(null);
  return reportAccessibility(pdf);
}

/** XRechnung: the XML is the document; nothing is rendered (spec: E-invoices, Result). */
export function xmlDocument(work: Work, einv: EInvoicePlan): Produced {
  return {
    file: Buffer.from(einv.xml, 'utf8'),
    contentType: 'application/xml',
    filename:
      work.request.filename === undefined
        ? einv.xmlFilename
        : sanitizeFilename(work.request.filename, '.xml'),
    pages: null,
    warnings: [],
    blockedResources: [],
    blockedCount: 0,
    eInvoice: eInvoiceSummary(einv),
    metadata: work.request.metadata ?? null,
    row: null,
  };
}

/** Extension: a source_url document without `filename` is named after its page title, else its host. */
export function sourceFilename(prepared: PreparedHtml, title: string | undefined): string {
  if (title) return title;
  return prepared.sourceUrl ? new URL(prepared.sourceUrl).hostname : 'document';
}
