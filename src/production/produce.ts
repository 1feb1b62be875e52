import type { RenderTimings } from '../documents/activity.js';
import {
  type DocumentLifecycle,
  type NewDocument,
  type ProducedFile,
  usagePeriodOf,
} from '../documents/lifecycle.js';
import type { DocumentRow } from '../documents/repository.js';
import type { DeliveryState, EmailBudget } from '../email/index.js';
import {
  checkLanguage,
  type FinishingContribution,
  type FinishingPlan,
  finishingOptionsOf,
  finishPdf,
  mergedPageCount,
  mergeFinishing,
  planFinishing,
  type ResolvedMerge,
} from '../finishing/index.js';
import type { RenderResult } from '../render/index.js';
import { htmlLanguage, MAX_PAGES } from '../render/index.js';
import type { Clock } from '../shared/clock.js';
import { AppError, type ErrorCode, isAppError } from '../shared/errors.js';
import { sanitizeFilename } from '../shared/filenames.js';
import { newId } from '../shared/ids.js';
import type { SlotLease, TeamSlots } from '../shared/team-slots.js';
import { MAX_WARNINGS, type Warning } from '../shared/warnings.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { Db } from '../storage/db.js';
import { type Admission, storingPausedError } from './admission.js';
import {
  type EInvoicePlan,
  type EInvoiceSummary,
  eInvoiceFinishing,
  eInvoiceSummary,
  planEInvoice,
} from './einvoice.js';
import { assertMergedSize, lookUpMerge, MergeInspection, type StoredPdfPort } from './merge-sources.js';
import { reserveLiveDocuments } from './plan-limits.js';
import type {
  Caller,
  CertificatePort,
  DeliveryPort,
  DocumentRequest,
  RendererPort,
  UsagePort,
} from './ports.js';
import { type PrepareDeps, type PreparedHtml, prepareHtml } from './prepare.js';
import {
  assertStorageAvailable,
  decideStorage,
  expiryFor,
  type StorageLedger,
  type StoragePolicy,
} from './storage-policy.js';

/**
 * The one "make a document" use case. Every path that turns a request into a PDF (POST /pdf sync and
 * async, previews, template thumbnails, batch items) calls `produceDocument`; they differ only in the
 * options below. The order is always:
 *
 *   e-invoice validation → finishing plan → plan checks → team render slot → prepare (template, Liquid,
 *   page options, size) → render → finishing (src/finishing: attachments, metadata, stamp, PDF/A,
 *   protection) → store → record (documents lifecycle + outbox event)
 */
export interface ProduceDeps extends PrepareDeps {
  clock: Clock;
  renderer: RendererPort;
  slots: TeamSlots;
  blobs: Pick<BlobStore, 'put'>;
  ledger: StorageLedger;
  usage: UsagePort;
  lifecycle: DocumentLifecycle;
  admission: Admission;
  delivery: DeliveryPort;
  /** Stored documents named by `prepend`/`append` (extension, README "Merging"). */
  storedPdfs: StoredPdfPort;
  certificates: CertificatePort;
}

/**
 * `document`: recorded, counted when live, watermarked when test, with events.
 * `preview`: always watermarked; never stored, counted or recorded (spec: Templates preview).
 * `thumbnail`: a picture of the template itself: no watermark, nothing stored, counted or recorded.
 */
export type Purpose = 'document' | 'preview' | 'thumbnail';

/** A queued (background) document this render completes; its final state commits with its job. */
export interface QueuedDocument {
  id: string;
  createdAt: Date;
  /** Runs the final transition; the job queue runs it in the transaction that finishes the job. */
  commit(write: (trx: Db) => Promise<unknown>): Promise<void>;
  /** A failure with this code will be retried: leave the document queued, record nothing. */
  retriable(code: ErrorCode): boolean;
  /** Called once the render slot is held (the document becomes `processing`). */
  onStart(): Promise<void>;
}

export interface ProduceInput {
  caller: Caller;
  request: DocumentRequest;
  purpose: Purpose;
  test: boolean;
  /** How the file is kept; previews and thumbnails are never stored whatever is passed. */
  storage: StoragePolicy;
  /** Direct work takes any free team slot; background work leaves one for direct requests. */
  slot: 'direct' | 'background';
  signal?: AbortSignal;
  queued?: QueuedDocument;
  /** Runs in the transaction that records a direct document (e.g. its idempotency key). */
  onRecorded?: (trx: Db, documentId: string) => Promise<void>;
}

export interface Produced {
  file: Buffer;
  contentType: 'application/pdf' | 'application/xml';
  filename: string;
  /** Null for XRechnung XML (nothing was paginated). */
  pages: number | null;
  warnings: Warning[];
  blockedResources: string[];
  blockedCount: number;
  eInvoice: EInvoiceSummary | null;
  metadata: Record<string, unknown> | null;
  /** The direct document's record; null for previews, thumbnails and queued documents (commit pending). */
  row: DocumentRow | null;
  /** Render timing for the activity log; absent for XRechnung XML (nothing rendered). */
  timings?: RenderTimings;
}

/** Background work found every team slot taken: the job waits, nothing is recorded. */
export class NoRenderSlot extends Error {
  constructor() {
    super('no free render slot for this team');
  }
}

type Stage = 'check' | 'prepare' | 'render' | 'store';

interface Run {
  stage: Stage;
  /** The period a direct live document reserved its count in, until its record consumes it. */
  reserved: string | null;
  prepared: PreparedHtml | null;
  einv: EInvoicePlan | null;
  finishing: FinishingPlan | null;
  /** What the e-invoice adds to the finishing (its XML, PDF/A-3b). */
  contribution: FinishingContribution | null;
  leavePreparation: () => void;
  /** When the request arrived: a direct document's `processing` entry (it was processing from then on). */
  startedAt: Date;
}

export async function produceDocument(deps: ProduceDeps, input: ProduceInput): Promise<Produced> {
  const run: Run = {
    stage: 'check',
    reserved: null,
    prepared: null,
    einv: null,
    finishing: null,
    contribution: null,
    leavePreparation: () => {},
    startedAt: deps.clock.now(),
  };
  try {
    // Direct work counts as "in preparation" until it renders; queued work is bounded by the workers.
    if (!input.queued) run.leavePreparation = deps.admission.enterPreparation();
    run.einv = input.request.e_invoice === undefined ? null : await planEInvoice(input.request.e_invoice);
    // Every finishing combination is checked here, before anything is counted or rendered.
    if (run.einv?.kind !== 'xml') {
      run.contribution = run.einv ? await eInvoiceFinishing(run.einv, builtInTemplate(input.request)) : null;
      run.finishing = planFinishing(input.request, run.contribution);
    }
    if (input.purpose === 'document') {
      if (input.storage === 'required' && deps.admission.storingPaused()) throw storingPausedError();
      const email = input.request.deliver?.email;
      if (email) await deps.delivery.assertAllowed(budgetOf(input.caller), [email.to]);
      // Spec: plan and storage refusals come before anything is rendered or counted. A queued document
      // reserved its count when it was queued.
      if (!input.queued)
        run.reserved = await reserveLiveDocuments(deps.usage, input.caller, {
          test: input.test,
          count: 1,
          at: deps.clock.now(),
        });
      if (input.storage === 'required') await assertStorageAvailable(deps.ledger, input.caller, input.test);
    }
    if (run.einv?.kind === 'xml') return await produceXml(deps, input, run.einv, run);
    return await producePdf(deps, input, run);
  } catch (err) {
    if (run.reserved) await deps.usage.release(input.caller.teamId, run.reserved);
    await recordFailure(deps, input, run, err);
    throw err;
  } finally {
    run.leavePreparation();
  }
}

async function producePdf(deps: ProduceDeps, input: ProduceInput, run: Run): Promise<Produced> {
  const lease = await acquireSlot(deps.slots, input);
  try {
    run.stage = 'prepare';
    const prepared = await prepareHtml(deps, input.caller.teamId, input.request, run.einv);
    run.prepared = prepared;
    const planned = withTemplateFinishing(run, input.request, prepared);
    // A template's thumbnail is a picture of the template itself: no merged pages.
    const finishing = input.purpose === 'thumbnail' ? { ...planned, merge: null } : planned;
    checkLanguage(finishing, htmlLanguage(prepared.html));
    const watermark = input.purpose === 'preview' || (input.purpose === 'document' && input.test);
    // Merge sources are looked up before rendering (a wrong id costs no render); qpdf checks them beside it.
    const inspection = finishing.merge
      ? new MergeInspection(
          await lookUpMerge(deps.storedPdfs, finishing.merge, {
            teamId: input.caller.teamId,
            test: input.test,
            watermark,
          }),
        )
      : null;
    // A queued document's sources are checked before it turns processing (a refusal removes it, as before).
    if (input.queued) await inspection?.done();
    // The certificate is looked up (and its key opened) before rendering: an unknown or expired one
    // fails the request without a render. The key lives only as long as this document.
    const signingKey = finishing.sign
      ? await deps.certificates.signingKey(
          input.caller.teamId,
          finishing.sign.certificate_id,
          deps.clock.now(),
        )
      : undefined;
    await input.queued?.onStart();
    run.stage = 'render';
    run.leavePreparation();
    const renderStart = performance.now();
    const render = (signal?: AbortSignal) =>
      deps.renderer.render({
        html: prepared.html,
        css: prepared.css,
        page: prepared.page,
        watermark,
        title: prepared.template?.name ?? (prepared.filename || 'document'),
        tagged: finishing.tagged,
        outline: finishing.outline,
        tenant: input.caller.teamId,
        ...(signal ? { signal } : {}),
        ...(prepared.localResources ? { localResources: prepared.localResources } : {}),
        ...(prepared.sourceUrl === null ? {} : { sourceUrl: prepared.sourceUrl }),
        ...(input.request.wait_for ? { waitFor: input.request.wait_for } : {}),
      });
    const { result, merge } = inspection
      ? await renderBesideInspection(run, inspection, input.signal, render)
      : { result: await render(input.signal), merge: undefined };
    const renderMs = performance.now() - renderStart;
    const createdAt = input.queued?.createdAt ?? deps.clock.now();
    const pages = mergedPages(result.pages, merge);
    const pdf = await finishPdf(result.pdf, finishing, {
      createdAt,
      ...(merge ? { merge } : {}),
      ...(signingKey ? { signingKey } : {}),
    });
    if (merge) assertMergedSize(pdf);
    run.stage = 'store';
    const produced: Produced = {
      file: pdf,
      contentType: 'application/pdf',
      filename: sanitizeFilename(prepared.filename || sourceFilename(prepared, result.title), '.pdf'),
      pages,
      warnings: [...prepared.warnings, ...result.warnings].slice(0, MAX_WARNINGS),
      blockedResources: result.blockedResources.slice(0, 10),
      blockedCount: result.blockedCount,
      eInvoice: run.einv ? eInvoiceSummary(run.einv) : null,
      metadata: input.request.metadata ?? null,
      row: null,
      timings: roundedTimings(renderMs, result.timings),
    };
    if (input.purpose !== 'document') return produced;
    return await storeAndRecord(deps, input, produced, { createdAt, prepared, run });
  } finally {
    await lease.release();
  }
}

/**
 * The render with the merge sources' checks beside it. A refused source is the request's fault found
 * before any output (stage `prepare`: a direct request leaves no failed document, as a wrong id does).
 */
async function renderBesideInspection(
  run: Run,
  inspection: MergeInspection,
  signal: AbortSignal | undefined,
  render: (signal: AbortSignal) => Promise<RenderResult>,
): Promise<{ result: RenderResult; merge: ResolvedMerge }> {
  const both = signal ? AbortSignal.any([signal, inspection.signal]) : inspection.signal;
  try {
    const { value, merge } = await inspection.alongside(() => render(both));
    return { result: value, merge };
  } catch (err) {
    if (inspection.failed) run.stage = 'prepare';
    throw err;
  }
}

/** The merged document's pages (README "Merging": the page limit applies to the merged document). */
function mergedPages(rendered: number, merge: ResolvedMerge | undefined): number {
  if (!merge) return rendered;
  const pages = rendered + mergedPageCount(merge);
  if (pages > MAX_PAGES)
    throw new AppError(
      'document_too_large',
      `The merged PDF has more than ${MAX_PAGES} pages (${rendered} rendered and ${pages - rendered} merged).`,
    );
  return pages;
}

/** XRechnung: the XML is the document; nothing is rendered, so no render slot (spec: E-invoices, Result). */
async function produceXml(
  deps: ProduceDeps,
  input: ProduceInput,
  einv: EInvoicePlan,
  run: Run,
): Promise<Produced> {
  run.stage = 'store';
  await input.queued?.onStart();
  const produced: Produced = {
    file: Buffer.from(einv.xml, 'utf8'),
    contentType: 'application/xml',
    filename:
      input.request.filename === undefined
        ? einv.xmlFilename
        : sanitizeFilename(input.request.filename, '.xml'),
    pages: null,
    warnings: [],
    blockedResources: [],
    blockedCount: 0,
    eInvoice: eInvoiceSummary(einv),
    metadata: input.request.metadata ?? null,
    row: null,
  };
  const createdAt = input.queued?.createdAt ?? deps.clock.now();
  return storeAndRecord(deps, input, produced, { createdAt, prepared: null, run });
}

/**
 * The plan made before anything was counted covers the request; a template's own finishing settings
 * (the request's fields over them) are known once it is resolved, and are checked here, still before
 * rendering.
 */
function withTemplateFinishing(run: Run, request: DocumentRequest, prepared: PreparedHtml): FinishingPlan {
  const settings = prepared.template?.settings;
  if (!settings || Object.keys(finishingOptionsOf(settings)).length === 0)
    return run.finishing ?? planFinishing({});
  run.finishing = planFinishing(mergeFinishing(settings, request), run.contribution);
  return run.finishing;
}

/** An e-invoice without its own html or template is drawn by Quire's built-in invoice template. */
function builtInTemplate(request: DocumentRequest): boolean {
  return request.html === undefined && request.template_id === undefined;
}

/** Extension: a source_url document without `filename` is named after its page title, else its host. */
function sourceFilename(prepared: PreparedHtml, title: string | undefined): string {
  if (title) return title;
  return prepared.sourceUrl ? new URL(prepared.sourceUrl).hostname : 'document';
}

async function acquireSlot(slots: TeamSlots, input: ProduceInput): Promise<SlotLease> {
  const limit = input.caller.plan.render_concurrency;
  const lease = await slots.tryAcquire(input.caller.teamId, limit, input.slot);
  if (lease) return lease;
  if (input.slot === 'background') throw new NoRenderSlot();
  throw new AppError(
    'rate_limited',
    `This team already renders ${limit} PDF(s) at once.`,
    { reason: 'concurrency', limit },
    { 'retry-after': '1' },
  );
}

async function storeAndRecord(
  deps: ProduceDeps,
  input: ProduceInput,
  produced: Produced,
  context: { createdAt: Date; prepared: PreparedHtml | null; run: Run },
): Promise<Produced> {
  const { caller, test } = input;
  const id = input.queued?.id ?? newId();
  // Low disk pauses storing: a live binary answer is still returned, just not kept.
  const policy = input.storage === 'if_room' && deps.admission.storingPaused() ? 'never' : input.storage;
  const store = await decideStorage(deps.ledger, caller, {
    test,
    policy,
    bytes: produced.file.length,
  });
  const blobKey = store
    ? `documents/${id}.${produced.contentType === 'application/xml' ? 'xml' : 'pdf'}`
    : null;
  if (blobKey) await deps.blobs.put(blobKey, produced.file);
  const file: ProducedFile = {
    pages: produced.pages,
    bytes: produced.file.length,
    blobKey,
    expiresAt: blobKey ? expiryFor(context.createdAt, caller.plan, test) : null,
    // A live document counts in the period it reserved in: a queued one when it was queued.
    usagePeriod: test ? null : input.queued ? usagePeriodOf(input.queued.createdAt) : context.run.reserved,
    mode: context.prepared?.page.mode ?? null,
    templateVersion: context.prepared?.template?.version ?? null,
    signed: Boolean(context.run.finishing?.sign),
    // A queued source_url document learns its name (the page title) only now.
    ...(context.prepared?.sourceUrl ? { filename: produced.filename } : {}),
  };
  const { lifecycle } = deps;
  const report = {
    warnings: produced.warnings,
    blockedResources: produced.blockedResources,
    ...(produced.timings ? { timings: produced.timings } : {}),
  };
  const deliver = (trx: Db) => queueDelivery(deps, input, trx, { id, stored: blobKey !== null, produced });
  if (input.queued) {
    const queuedId = input.queued.id;
    await input.queued.commit(async (trx) => {
      const delivery = await deliver(trx);
      await lifecycle.succeed(trx, queuedId, file, { ...report, eInvoice: produced.eInvoice, delivery });
    });
    return produced;
  }
  const doc = newDocument(input, produced, {
    id,
    createdAt: context.createdAt,
    startedAt: context.run.startedAt,
    prepared: context.prepared,
  });
  const row = await lifecycle.transact(async (trx) => {
    const recorded = await lifecycle.complete(trx, { ...doc, delivery: await deliver(trx) }, file, report);
    await input.onRecorded?.(trx, recorded.id);
    return recorded;
  });
  // The record (and its ledger row) committed: the reservation is now the count.
  context.run.reserved = null;
  return { ...produced, row };
}

function newDocument(
  input: ProduceInput,
  produced: Pick<Produced, 'filename' | 'contentType' | 'eInvoice'>,
  context: { id: string; createdAt: Date; startedAt: Date; prepared: PreparedHtml | null },
): NewDocument {
  return {
    id: context.id,
    teamId: input.caller.teamId,
    test: input.test,
    createdAt: context.createdAt,
    startedAt: context.startedAt,
    filename: produced.filename,
    contentType: produced.contentType,
    templateId: context.prepared?.template?.id ?? null,
    templateVersion: context.prepared?.template?.version ?? null,
    mode: context.prepared?.page.mode ?? null,
    metadata: input.request.metadata ?? null,
    eInvoice: produced.eInvoice,
    batchId: null,
    delivery: null,
  };
}

/** Whole milliseconds: the activity log shows timing, not benchmark precision. */
function roundedTimings(
  renderMs: number,
  t: { loadMs: number; analyzeMs: number; pdfMs: number; postMs: number },
): RenderTimings {
  return {
    render: Math.round(renderMs),
    load: Math.round(t.loadMs),
    analyze: Math.round(t.analyzeMs),
    pdf: Math.round(t.pdfMs),
    post: Math.round(t.postMs),
  };
}

function budgetOf(caller: Caller): EmailBudget {
  return { teamId: caller.teamId, emailsPerDay: caller.plan.emails_per_day };
}

/** deliver.email of a recorded document: its email queued (or refused) in the record's transaction. */
async function queueDelivery(
  deps: ProduceDeps,
  input: ProduceInput,
  trx: Db,
  doc: { id: string; stored: boolean; produced: Produced },
): Promise<DeliveryState | null> {
  const email = input.request.deliver?.email;
  if (!email) return null;
  return deps.delivery.queue(trx, {
    budget: budgetOf(input.caller),
    documentId: doc.id,
    test: input.test,
    stored: doc.stored,
    filename: doc.produced.filename,
    email,
  });
}

/** A document that failed cannot be emailed: nothing to attach. */
function deliveryOfFailure(input: ProduceInput): DeliveryState | null {
  return input.request.deliver?.email ? { email: { status: 'failed', reason: 'not_stored' } } : null;
}

/**
 * Which failures leave a record (spec: Document status): a direct render that failed while rendering
 * leaves a failed document; a queued document ends failed (after rendering started) or is removed with
 * a pdf.failed that says why (before). Retried failures, a full renderer queue and a busy slot leave none.
 */
async function recordFailure(deps: ProduceDeps, input: ProduceInput, run: Run, err: unknown): Promise<void> {
  if (input.purpose !== 'document' || err instanceof NoRenderSlot) return;
  const { lifecycle } = deps;
  const rendering = run.stage === 'render' || run.stage === 'store';
  if (input.queued) {
    const code: ErrorCode = isAppError(err) ? err.code : rendering ? 'render_failed' : 'internal_error';
    if (input.queued.retriable(code)) return;
    const id = input.queued.id;
    const message = isAppError(err) ? err.message : 'The render failed.';
    await input.queued.commit((trx) =>
      rendering
        ? lifecycle.fail(trx, id, code, deliveryOfFailure(input))
        : lifecycle.abandon(trx, id, code, message),
    );
    return;
  }
  const code: ErrorCode = isAppError(err) ? err.code : 'internal_error';
  if (run.stage !== 'render' || code === 'service_busy' || !run.prepared) return;
  const prepared = run.prepared;
  const doc = newDocument(
    input,
    {
      filename: sanitizeFilename(prepared.filename || sourceFilename(prepared, undefined), '.pdf'),
      contentType: 'application/pdf',
      eInvoice: run.einv ? eInvoiceSummary(run.einv) : null,
    },
    { id: newId(), createdAt: deps.clock.now(), startedAt: run.startedAt, prepared },
  );
  await lifecycle.transact((trx) =>
    lifecycle.completeFailed(trx, { ...doc, delivery: deliveryOfFailure(input) }, code),
  );
}
