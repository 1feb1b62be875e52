import { type DocumentLifecycle, type FinishTarget, usagePeriodOf } from '../documents/index.js';
import {
  checkLanguage,
  type FinishingContribution,
  type FinishingPlan,
  finishingOptionsOf,
  mergeFinishing,
  type PasswordBox,
  planFinishing,
  resolveFinishing,
  type StoredPdfPort,
} from '../finishing/index.js';
import { htmlLanguage } from '../render/index.js';
import type { Clock } from '../shared/clock.js';
import { type ErrorCode, isAppError } from '../shared/errors.js';
import { sanitizeFilename } from '../shared/filenames.js';
import { newId } from '../shared/ids.js';
import type { TeamSlots } from '../shared/team-slots.js';
import { MAX_WARNINGS } from '../shared/warnings.js';
import type { Db } from '../storage/index.js';
import type { Admitted } from './admission.js';
import { type EInvoicePlan, eInvoiceFinishing, eInvoiceSummary, planEInvoice } from './einvoice.js';
import type { Caller, CertificatePort, DocumentRequest, RendererPort, TemplatePort } from './ports.js';
import { type PrepareDeps, type PreparedHtml, prepareHtml } from './prepare.js';
import {
  type FinalWrite,
  failureWrite,
  newDocument,
  type Produced,
  type RecordDeps,
  roundedTimings,
  storeFile,
  successWrite,
} from './record.js';
import { acquireSlot, NoRenderSlot } from './render-slot.js';
import type { StoragePolicy } from './storage-policy.js';

/**
 * The one "make a document" use case. Every path that turns a request into a PDF (POST /pdf sync and
 * async, previews, template thumbnails, batch items) runs this pipeline; they differ only in the options
 * below. The order is always:
 *
 *   e-invoice validation → finishing plan → admission (direct: admit; queued: recheck) → team render slot →
 *   prepare (template, Liquid, page options, size) → render → finishing (src/finishing: attachments,
 *   metadata, stamp, PDF/A, protection) → store → the final outcome (documents lifecycle + outbox event)
 *
 * A direct document records its outcome in its own transaction (`produceDocument`); a queued one returns
 * it as a value (`produceQueued`) that the job queue runs in the transaction that finishes the job.
 */
export interface ProduceDeps extends PrepareDeps, RecordDeps {
  clock: Clock;
  renderer: RendererPort;
  slots: TeamSlots;
  lifecycle: DocumentLifecycle;
  /** Stored documents named by `prepend`/`append` (extension, docs/pdf-output.md "Merging"). */
  storedPdfs: StoredPdfPort;
  certificates: CertificatePort;
  /** Seals a queued request's `protect` passwords (finishing/sealed-protect.ts); the render job opens them. */
  passwords: PasswordBox;
}

/**
 * `document`: recorded, counted when live, watermarked when test, with events.
 * `preview`: always watermarked; never stored, counted or recorded (spec: Templates preview).
 * `thumbnail`: a picture of the template itself: no watermark, nothing stored, counted or recorded.
 */
export type Purpose = 'document' | 'preview' | 'thumbnail';

/** What is asked of the pipeline: the request (with its finishing options, as one value) and its use. */
interface Work {
  caller: Caller;
  request: DocumentRequest;
  purpose: Purpose;
  test: boolean;
  /** How the file is kept; previews and thumbnails are never stored whatever is passed. */
  storage: StoragePolicy;
  /** Direct work takes any free team slot; background work leaves one for direct requests. */
  slot: 'direct' | 'background';
  /**
   * Waits up to `ms` for a free slot instead of answering `rate_limited` at once, until `stop` aborts
   * (shutdown): thumbnails, which a dashboard page asks for many at a time. Absent: no wait.
   */
  slotWait?: { ms: number; stop: AbortSignal };
  signal?: AbortSignal;
  /** Resolves `template_id` instead of the stored templates (the editor's unsaved draft). */
  templates?: TemplatePort;
  /** The queued document this run renders (absent: direct work). */
  queued?: QueuedDocument;
}

/** A document now: POST /pdf without async, a preview, a thumbnail. */
export interface ProduceInput extends Omit<Work, 'queued'> {
  /** Runs in the transaction that records a direct document (e.g. its idempotency key). */
  onRecorded?: (trx: Db, documentId: string) => Promise<void>;
}

/** A queued (background) document; its outcome is returned, and commits with its job. */
export interface QueuedDocument {
  id: string;
  createdAt: Date;
  /** A failure with this code will be retried: leave the document queued, record nothing. */
  retriable(code: ErrorCode): boolean;
}

export interface QueuedInput {
  caller: Caller;
  request: DocumentRequest;
  test: boolean;
  signal: AbortSignal;
  queued: QueuedDocument;
}

/**
 * How a queued document's run ended, as a value for its job: `write` is its final transition (state,
 * count, pdf.* event), run by the queue inside its lease transaction. A failure without `write` was judged
 * retriable (nothing recorded); `no-slot`: every team slot was taken, the job waits and nothing happened.
 * A failure's `error` is for the job's record: its code and the error's own message.
 */
export type QueuedOutcome =
  | { kind: 'succeeded'; write: FinalWrite }
  | { kind: 'failed'; error: { code: ErrorCode; message: string }; write: FinalWrite | null }
  | { kind: 'no-slot' };

type Stage = 'check' | 'prepare' | 'render' | 'store';

interface Run {
  stage: Stage;
  /** A direct live document's admission, until its record consumes the reservation. */
  admitted: Admitted | null;
  prepared: PreparedHtml | null;
  einv: EInvoicePlan | null;
  finishing: FinishingPlan | null;
  /** What the e-invoice adds to the finishing (its XML, PDF/A-3b). */
  contribution: FinishingContribution | null;
  leavePreparation: () => void;
  /** When the request arrived: a direct document's `processing` entry (it was processing from then on). */
  startedAt: Date;
  /** The document's creation time, once its file exists (see createdAtOf). */
  createdAt: Date | null;
}

/** What the pipeline made: the answer, and for a document its stored file's columns. */
interface Made {
  produced: Produced;
  /** Null for previews and thumbnails (nothing is stored or recorded). */
  stored: { id: string; file: Parameters<typeof successWrite>[3]; prepared: PreparedHtml | null } | null;
}

function newRun(deps: ProduceDeps): Run {
  return {
    stage: 'check',
    admitted: null,
    prepared: null,
    einv: null,
    finishing: null,
    contribution: null,
    leavePreparation: () => {},
    startedAt: deps.clock.now(),
    createdAt: null,
  };
}

/** A document now (direct), a preview or a thumbnail; a direct document is recorded before it is returned. */
export async function produceDocument(deps: ProduceDeps, input: ProduceInput): Promise<Produced> {
  const run = newRun(deps);
  try {
    // Direct work counts as "in preparation" until it renders; queued work is bounded by the workers. Work
    // that waits for a slot (thumbnails) counts once it holds one: a wait holds nothing but would fill the
    // process-wide bound that every team's POST /pdf shares.
    if (!input.slotWait) run.leavePreparation = deps.admission.enterPreparation();
    const made = await make(deps, input, run);
    if (!made.stored) return made.produced;
    const { id, file, prepared } = made.stored;
    const document = newDocument(input, made.produced, {
      id,
      createdAt: createdAtOf(deps, input, run),
      startedAt: run.startedAt,
      prepared,
    });
    const write = successWrite(deps, input, made.produced, file, { document });
    const row = await deps.lifecycle.transact(async (trx) => {
      const recorded = await write(trx);
      // A new row is always written (only a queued document can be gone or already final).
      if (!recorded) throw new Error(`document ${id} was not recorded`);
      await input.onRecorded?.(trx, recorded.id);
      return recorded;
    });
    // The record (and its ledger row) committed: the reservation is now the count.
    run.admitted = null;
    return { ...made.produced, row };
  } catch (err) {
    await run.admitted?.release();
    await recordDirectFailure(deps, input, run, err);
    throw err;
  } finally {
    run.leavePreparation();
  }
}

/** A queued document's render (its job's handler): the outcome as a value, never a hand-off. */
export async function produceQueued(deps: ProduceDeps, input: QueuedInput): Promise<QueuedOutcome> {
  const run = newRun(deps);
  const work: Work = { ...input, purpose: 'document', storage: 'required', slot: 'background' };
  const target: FinishTarget = { id: input.queued.id };
  try {
    const made = await make(deps, work, run);
    const stored = made.stored as NonNullable<Made['stored']>;
    return { kind: 'succeeded', write: successWrite(deps, work, made.produced, stored.file, target) };
  } catch (err) {
    if (err instanceof NoRenderSlot) return { kind: 'no-slot' };
    const rendering = run.stage === 'render' || run.stage === 'store';
    const code: ErrorCode = isAppError(err) ? err.code : rendering ? 'render_failed' : 'internal_error';
    const error = { code, message: err instanceof Error ? err.message : String(err) };
    // Retried: the document stays queued and nothing is recorded (should no retry follow, the kind's
    // abandon fails it).
    if (input.queued.retriable(code)) return { kind: 'failed', error, write: null };
    const message = isAppError(err) ? err.message : 'The render failed.';
    // Spec: a background PDF refused before its work began (its admission, e.g. the plan's documents ran
    // out while it waited) leaves no record, only a pdf.failed that says why in words. Once its work began
    // (the template, Liquid, the render) it ends `failed` with its code and message, readable at its
    // Location and in the log (spec: Document status, queued/processing → failed).
    const write: FinalWrite =
      run.stage === 'check'
        ? async (trx) => {
            await deps.lifecycle.abandon(trx, input.queued.id, code, message);
            return null;
          }
        : failureWrite(deps.lifecycle, input.request, target, code, message);
    return { kind: 'failed', error, write };
  }
}

/** The pipeline up to the stored file; the caller records it. */
async function make(deps: ProduceDeps, work: Work, run: Run): Promise<Made> {
  run.einv = work.request.e_invoice === undefined ? null : await planEInvoice(work.request.e_invoice);
  // Every finishing combination is checked here, before anything is counted or rendered.
  if (run.einv?.kind !== 'xml') {
    run.contribution = run.einv ? await eInvoiceFinishing(run.einv, builtInTemplate(work.request)) : null;
    run.finishing = planFinishing(work.request, run.contribution);
  }
  if (work.purpose === 'document') await admitOrRecheck(deps, work, run);
  if (run.einv?.kind === 'xml') return produceXml(deps, work, run.einv, run);
  return producePdf(deps, work, run);
}

/**
 * Spec: plan, storage and email refusals come before anything is rendered or counted. A direct document
 * is admitted now; a queued one was admitted (and reserved its count) when it was queued, and is only
 * checked again for what may have run out while it waited.
 */
async function admitOrRecheck(deps: ProduceDeps, work: Work, run: Run): Promise<void> {
  const email = work.request.deliver?.email;
  const request = {
    caller: work.caller,
    test: work.test,
    storage: work.storage,
    emails: email ? [email.to] : [],
  };
  if (work.queued) await deps.admission.recheck(request);
  else run.admitted = await deps.admission.admit({ ...request, count: 1 });
}

async function producePdf(deps: ProduceDeps, work: Work, run: Run): Promise<Made> {
  const lease = await acquireSlot(deps.slots, work);
  try {
    if (work.slotWait && !work.queued) run.leavePreparation = deps.admission.enterPreparation();
    run.stage = 'prepare';
    const prepareDeps = work.templates ? { ...deps, templates: work.templates } : deps;
    const prepared = await prepareHtml(prepareDeps, work.caller.teamId, work.request, run.einv);
    run.prepared = prepared;
    const planned = withTemplateFinishing(run, work.request, prepared);
    // A template's thumbnail is a picture of the template itself: no merged pages. Previews and
    // thumbnails are looked at, not handed out: never encrypted (a user password would hide them).
    const finishing =
      work.purpose === 'document'
        ? planned
        : {
            ...planned,
            protect: null,
            // A thumbnail is a picture: no merged pages, and no tags unless a step needs them.
            ...(work.purpose === 'thumbnail'
              ? { merge: null, tagged: planned.outline || planned.pdf_ua !== null }
              : {}),
          };
    checkLanguage(finishing, htmlLanguage(prepared.html));
    const watermark = work.purpose === 'preview' || (work.purpose === 'document' && work.test);
    // What the steps need is looked up before rendering: a wrong merge source or an unknown or expired
    // certificate costs no render (the key lives only as long as this document); qpdf checks the merge
    // sources beside the render.
    const resolved = await resolveFinishing(finishing, {
      teamId: work.caller.teamId,
      test: work.test,
      watermark,
      now: deps.clock.now(),
      storedPdfs: deps.storedPdfs,
      signingKeys: deps.certificates,
    });
    // A queued document's sources are checked before it turns processing.
    if (work.queued) await resolved.ready();
    await startQueued(deps, work);
    run.stage = 'render';
    run.leavePreparation();
    const renderStart = performance.now();
    const result = await resolved
      .alongside(
        (signal) =>
          deps.renderer.render({
            html: prepared.html,
            css: prepared.css,
            page: prepared.page,
            watermark,
            title: prepared.template?.name ?? (prepared.filename || 'document'),
            tagged: finishing.tagged,
            outline: finishing.outline,
            tenant: work.caller.teamId,
            ...(signal ? { signal } : {}),
            ...(prepared.localResources ? { localResources: prepared.localResources } : {}),
            ...(prepared.sourceUrl === null ? {} : { sourceUrl: prepared.sourceUrl }),
            ...(work.request.wait_for ? { waitFor: work.request.wait_for } : {}),
          }),
        work.signal,
      )
      .catch((err: unknown) => {
        // A refused source is the request's fault found before any output: a direct request leaves no failed
        // document, as a wrong id does.
        if (resolved.inputRefused) run.stage = 'prepare';
        throw err;
      });
    const renderMs = performance.now() - renderStart;
    const createdAt = createdAtOf(deps, work, run);
    const pages = await resolved.pages(result.pages);
    const pdf = await resolved.finish(result.pdf, { createdAt });
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
      metadata: work.request.metadata ?? null,
      row: null,
      timings: roundedTimings(renderMs, result.timings),
    };
    if (work.purpose !== 'document') return { produced, stored: null };
    return await store(deps, work, run, produced);
  } finally {
    await lease.release();
  }
}

/** A queued document turns `processing` once its render slot is held. */
async function startQueued(deps: ProduceDeps, work: Work): Promise<void> {
  if (work.queued) await deps.lifecycle.start(work.queued.id, work.caller.teamId);
}

/** A queued document was created when it was queued; a direct one when its file was made (asked once). */
function createdAtOf(deps: ProduceDeps, work: Work, run: Run): Date {
  run.createdAt ??= work.queued?.createdAt ?? deps.clock.now();
  return run.createdAt;
}

/** The file stored (by the policy) under the document's id, for its record. */
async function store(deps: ProduceDeps, work: Work, run: Run, produced: Produced): Promise<Made> {
  const id = work.queued?.id ?? newId();
  const file = await storeFile(deps, produced, {
    id,
    caller: work.caller,
    test: work.test,
    storage: work.storage,
    createdAt: createdAtOf(deps, work, run),
    // A live document counts in the period it reserved in: a queued one when it was queued.
    usagePeriod: work.queued ? usagePeriodOf(work.queued.createdAt) : (run.admitted?.period ?? null),
    prepared: run.prepared,
    signed: Boolean(run.finishing?.sign),
  });
  return { produced, stored: { id, file, prepared: run.prepared } };
}

/** XRechnung: the XML is the document; nothing is rendered, so no render slot (spec: E-invoices, Result). */
async function produceXml(deps: ProduceDeps, work: Work, einv: EInvoicePlan, run: Run): Promise<Made> {
  run.stage = 'store';
  await startQueued(deps, work);
  const produced: Produced = {
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
  return store(deps, work, run, produced);
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

/**
 * Which direct failures leave a record (spec: Document status): a direct render that failed while
 * rendering leaves a failed document; a full renderer queue and anything before rendering leave none.
 */
async function recordDirectFailure(
  deps: ProduceDeps,
  input: ProduceInput,
  run: Run,
  err: unknown,
): Promise<void> {
  if (input.purpose !== 'document') return;
  const code: ErrorCode = isAppError(err) ? err.code : 'internal_error';
  if (run.stage !== 'render' || code === 'service_busy' || !run.prepared) return;
  const prepared = run.prepared;
  const document = newDocument(
    input,
    {
      filename: sanitizeFilename(prepared.filename || sourceFilename(prepared, undefined), '.pdf'),
      contentType: 'application/pdf',
      eInvoice: run.einv ? eInvoiceSummary(run.einv) : null,
    },
    { id: newId(), createdAt: deps.clock.now(), startedAt: run.startedAt, prepared },
  );
  await deps.lifecycle.transact(failureWrite(deps.lifecycle, input.request, { document }, code));
}
