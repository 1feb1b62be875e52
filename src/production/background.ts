import type { NewDocument } from '../documents/lifecycle.js';
import type { DocumentRow } from '../documents/repository.js';
import { type FinishingOptions, planFinishing } from '../finishing/index.js';
import {
  assertWithinJobLimits,
  backoffTable,
  type EnqueueInput,
  enqueueJob,
  enqueueJobs,
  type JobHandler,
  type JobKindOptions,
  type JobOutcome,
} from '../jobs/index.js';
import type { ErrorCode } from '../shared/errors.js';
import { sanitizeFilename } from '../shared/filenames.js';
import { newId } from '../shared/ids.js';
import type { Db } from '../storage/db.js';
import { storingPausedError } from './admission.js';
import { eInvoiceSummary, planEInvoice } from './einvoice.js';
import { resolveMerge } from './merge-sources.js';
import { reserveLiveDocuments } from './plan-limits.js';
import type { Caller, DocumentRequest } from './ports.js';
import { prepareHtml } from './prepare.js';
import { NoRenderSlot, type ProduceDeps, produceDocument } from './produce.js';
import { assertStorageAvailable } from './storage-policy.js';

export const RENDER_JOB = 'render';

/**
 * Queued work that signs names a certificate the team has now (invalid_request otherwise): only its id is
 * stored with the job; the key is opened again when the document is signed.
 */
export async function checkSigningCertificate(
  deps: Pick<ProduceDeps, 'certificates' | 'clock'>,
  teamId: string,
  options: FinishingOptions,
): Promise<void> {
  if (options.sign) await deps.certificates.signingKey(teamId, options.sign.certificate_id, deps.clock.now());
}

/** What the render job carries: the queued document and the validated request. */
interface RenderJobPayload {
  documentId: string;
  request: DocumentRequest;
}

export interface BackgroundDeps extends ProduceDeps {
  db: Db;
  /** Finds a document by id (the documents capability's repository). */
  findDocument(db: Db, id: string): Promise<DocumentRow | null>;
  /** The team's plan, or null when the team is gone. */
  planOf(teamId: string): Promise<Caller['plan'] | null>;
}

/**
 * `async: true` (spec: POST /pdf → 202): everything that can fail synchronously (e-invoice, template lookup,
 * Liquid, page options, storage quota) runs now; then the queued document and its job are written in one
 * transaction, refused whole with `rate_limited` over open_jobs or test_jobs_per_day.
 */
export async function enqueueDocument(
  deps: BackgroundDeps,
  caller: Caller,
  request: DocumentRequest,
  test: boolean,
  /** Runs in the transaction that queues the document (e.g. its idempotency key). */
  onQueued?: (trx: Db, documentId: string) => Promise<void>,
): Promise<{ id: string; status: 'queued'; created_at: string }> {
  const einv = request.e_invoice === undefined ? null : await planEInvoice(request.e_invoice);
  // Finishing combinations are refused now, not when the job runs (the e-invoice's part is added then).
  const merge = planFinishing(request).merge;
  if (merge) await resolveMerge(deps.storedPdfs, merge, { teamId: caller.teamId, test, watermark: test });
  await checkSigningCertificate(deps, caller.teamId, request);
  const prepared = einv?.kind === 'xml' ? null : await prepareHtml(deps, caller.teamId, request, einv);
  const email = request.deliver?.email;
  if (email) await assertEmailsAllowed(deps, caller, [email.to]);
  await assertCanStore(deps, caller, test);
  const doc = queuedDocument(deps, caller, {
    test,
    filename: prepared
      ? sanitizeFilename(prepared.filename, '.pdf')
      : sanitizeFilename(request.filename ?? einv?.defaultName ?? 'document', '.xml'),
    contentType: prepared ? 'application/pdf' : 'application/xml',
    templateId: prepared?.template?.id ?? null,
    request,
    batchId: null,
    eInvoice: einv ? eInvoiceSummary(einv) : null,
  });
  await withReservation(deps, caller, { test, count: 1, at: doc.createdAt }, () =>
    deps.lifecycle.transact(async (trx) => {
      await queueDocument(trx, deps, caller, doc, request, undefined);
      await assertWithinJobLimits(trx, deps.clock, { plan: caller.plan, teamId: caller.teamId, test });
      await onQueued?.(trx, doc.id);
    }),
  );
  return { id: doc.id, status: 'queued', created_at: doc.createdAt.toISOString() };
}

/** One document of a bulk enqueue: its own request (data, filename, deliver…) for the shared template. */
export interface BulkItem {
  request: DocumentRequest & { template_id: string };
  /** The download name before sanitising (a batch's filename, pattern or template name). */
  filename: string;
}

/** The job key of a bulk item's render job, so its owner (a batch) can cancel it while it waits. */
export function renderJobKey(documentId: string): string {
  return `document:${documentId}`;
}

/**
 * Many queued documents of one template at once (spec: POST /batches): every document and its render job
 * in one transaction, refused whole (nothing queued) over open_jobs or test_jobs_per_day. Only what is
 * common to all items is checked now (the caller resolved the template; email limits for every address;
 * storage); an item whose data breaks the template fails alone when it renders, like any background PDF.
 * Returns the document ids in item order.
 */
export async function enqueueDocuments(
  deps: BackgroundDeps,
  caller: Caller,
  input: { test: boolean; batchId: string; items: readonly BulkItem[] },
  /** Runs in the same transaction after the documents are queued (e.g. the batch row and its items). */
  onQueued: (trx: Db, documentIds: string[]) => Promise<void>,
): Promise<string[]> {
  const addresses = input.items.flatMap((item) => item.request.deliver?.email?.to ?? []);
  if (addresses.length > 0) await assertEmailsAllowed(deps, caller, addresses);
  await assertCanStore(deps, caller, input.test);
  const createdAt = deps.clock.now();
  const docs = input.items.map((item) =>
    queuedDocument(deps, caller, {
      createdAt,
      test: input.test,
      filename: sanitizeFilename(item.filename, '.pdf'),
      contentType: 'application/pdf',
      templateId: item.request.template_id,
      request: item.request,
      batchId: input.batchId,
    }),
  );
  // Spec: a batch is refused whole when its live documents do not all fit the plan (and cap).
  const reservation = { test: input.test, count: docs.length, at: createdAt };
  await withReservation(deps, caller, reservation, () =>
    deps.lifecycle.transact(async (trx) => {
      // Multi-row inserts: 10,000 items one row at a time took seconds inside the write lock.
      await enqueueJobs(
        trx,
        deps.clock,
        docs.map((doc, i) =>
          renderJob(caller, doc, (input.items[i] as BulkItem).request, renderJobKey(doc.id)),
        ),
      );
      await deps.lifecycle.createQueuedMany(trx, docs);
      await assertWithinJobLimits(trx, deps.clock, {
        plan: caller.plan,
        teamId: caller.teamId,
        test: input.test,
      });
      await onQueued(
        trx,
        docs.map((doc) => doc.id),
      );
    }),
  );
  return docs.map((doc) => doc.id);
}

/**
 * Reserves the live documents being queued (before anything renders; each counts when it succeeds and gives
 * its reservation back when it fails or is canceled), and gives all back if queueing them fails.
 */
async function withReservation(
  deps: BackgroundDeps,
  caller: Caller,
  input: { test: boolean; count: number; at: Date },
  queue: () => Promise<void>,
): Promise<void> {
  const period = await reserveLiveDocuments(deps.usage, caller, input);
  try {
    await queue();
  } catch (err) {
    if (period) await deps.usage.release(caller.teamId, period, input.count);
    throw err;
  }
}

async function assertEmailsAllowed(deps: BackgroundDeps, caller: Caller, addresses: string[]): Promise<void> {
  await deps.delivery.assertAllowed(
    { teamId: caller.teamId, emailsPerDay: caller.plan.emails_per_day },
    addresses,
  );
}

/** Spec: a background PDF is always stored, so a full quota or a full disk is refused now, as for `response: url`. */
async function assertCanStore(deps: BackgroundDeps, caller: Caller, test: boolean): Promise<void> {
  if (deps.admission.storingPaused()) throw storingPausedError();
  await assertStorageAvailable(deps.ledger, caller, test);
}

function queuedDocument(
  deps: BackgroundDeps,
  caller: Caller,
  fields: Pick<NewDocument, 'test' | 'filename' | 'contentType' | 'templateId' | 'batchId'> & {
    request: DocumentRequest;
    eInvoice?: object | null;
    createdAt?: Date;
  },
): NewDocument {
  return {
    id: newId(),
    teamId: caller.teamId,
    test: fields.test,
    createdAt: fields.createdAt ?? deps.clock.now(),
    filename: fields.filename,
    contentType: fields.contentType,
    templateId: fields.templateId,
    templateVersion: null,
    mode: null,
    metadata: fields.request.metadata ?? null,
    eInvoice: fields.eInvoice ?? null,
    batchId: fields.batchId,
    delivery: fields.request.deliver?.email ? { email: { status: 'queued' } } : null,
  };
}

/** The queued document and its render job, inside the caller's transaction (limits are the caller's to check). */
async function queueDocument(
  trx: Db,
  deps: BackgroundDeps,
  caller: Caller,
  doc: NewDocument,
  request: DocumentRequest,
  jobKey: string | undefined,
): Promise<void> {
  await enqueueJob(trx, deps.clock, renderJob(caller, doc, request, jobKey));
  await deps.lifecycle.createQueued(trx, doc);
}

function renderJob(
  caller: Caller,
  doc: NewDocument,
  request: DocumentRequest,
  jobKey: string | undefined,
): EnqueueInput {
  return {
    kind: RENDER_JOB,
    teamId: caller.teamId,
    test: doc.test,
    payload: { documentId: doc.id, request } satisfies RenderJobPayload,
    ...(jobKey === undefined ? {} : { jobKey }),
  };
}

/**
 * The extension point after a queued document's final transition (succeeded, failed, or removed): runs in
 * the same transaction, so whatever it records (e.g. a batch's completion job) commits exactly with it.
 */
export interface RenderHooks {
  afterFinal?(trx: Db, document: { id: string; batchId: string | null }): Promise<void>;
}

/** Spec: Document status — render_timeout and service_busy are retried (3 attempts in all), others fail at once. */
export const MAX_RENDER_ATTEMPTS = 3;
const RETRY_DELAYS_MS = [30_000, 120_000];
const RETRIED_CODES: ReadonlySet<ErrorCode> = new Set(['render_timeout', 'service_busy']);
const NO_SLOT_WAIT_MS = 1_000;

/**
 * The render kind's retry policy, applied by the job worker. `abandon` fails the document of a job given
 * up without a recorded outcome (its workers died during every attempt, or it kept throwing).
 */
export function renderJobOptions(deps: BackgroundDeps, hooks: RenderHooks = {}): JobKindOptions {
  return {
    maxAttempts: MAX_RENDER_ATTEMPTS,
    backoff: backoffTable(RETRY_DELAYS_MS),
    abandon: async (trx, job) => {
      const row = await deps.lifecycle.fail(
        trx,
        (job.payload as RenderJobPayload).documentId,
        'render_failed',
      );
      if (row) await hooks.afterFinal?.(trx, { id: row.id, batchId: row.batch_id });
    },
  };
}

/**
 * The background render: claims the queued document, produces it through the one use case, and hands the
 * final transition (document state, usage count, pdf.* event) to the job queue, which commits it in the
 * transaction that finishes the job — so it happens exactly once.
 */
export function createRenderJobHandler(deps: BackgroundDeps, hooks: RenderHooks = {}): JobHandler {
  return async (job, ctx) => {
    const payload = job.payload as RenderJobPayload;
    const document = await deps.findDocument(ctx.db, payload.documentId);
    if (!document) return { kind: 'failed', error: 'document record missing', retryable: false };
    const final = { id: document.id, batchId: document.batch_id };
    let pending: ((trx: Db) => Promise<unknown>) | null = null;
    const commit = async (write: (trx: Db) => Promise<unknown>) => {
      pending = async (trx: Db) => {
        await write(trx);
        await hooks.afterFinal?.(trx, final);
      };
    };
    const plan = await deps.planOf(document.team_id);
    if (!plan) {
      // The team is gone: give up without rendering. (A render that keeps killing its worker is given up
      // by the worker through renderJobOptions' abandon.)
      const message = 'The team no longer exists.';
      return {
        kind: 'failed',
        error: `forbidden: ${message}`,
        retryable: false,
        commit: async (trx) => {
          await deps.lifecycle.abandon(trx, document.id, 'forbidden', message);
          await hooks.afterFinal?.(trx, final);
        },
      };
    }
    try {
      await produceDocument(deps, {
        caller: { teamId: document.team_id, plan },
        request: payload.request,
        purpose: 'document',
        test: document.test === 1,
        storage: 'required',
        slot: 'background',
        signal: ctx.signal,
        queued: {
          id: document.id,
          createdAt: new Date(document.created_at),
          commit,
          // Whether another attempt follows is the worker's to say (attemptsLeft); when, too (the backoff).
          retriable: (code) => RETRIED_CODES.has(code) && ctx.attemptsLeft > 0 && !ctx.signal.aborted,
          onStart: () => deps.lifecycle.start(document.id, document.team_id),
        },
      });
      return succeeded(pending);
    } catch (err) {
      return afterFailure(err, pending);
    }
  };
}

function succeeded(pending: ((trx: Db) => Promise<unknown>) | null): JobOutcome {
  const write = pending;
  return write
    ? { kind: 'succeeded', commit: async (trx) => void (await write(trx)) }
    : { kind: 'succeeded' };
}

function afterFailure(err: unknown, pending: ((trx: Db) => Promise<unknown>) | null): JobOutcome {
  if (err instanceof NoRenderSlot) return { kind: 'defer', delayMs: NO_SLOT_WAIT_MS };
  const error = err instanceof Error ? err.message : String(err);
  const write = pending;
  // A recorded failure is final; an unrecorded one was judged retriable by produceDocument.
  if (write)
    return { kind: 'failed', error, retryable: false, commit: async (trx) => void (await write(trx)) };
  // Unrecorded: retried after the kind's backoff; should none follow, the worker's abandon fails the document.
  return { kind: 'failed', error, retryable: true };
}
