import type { DocumentRow, FinishTarget } from '../documents/index.js';
import { type ErrorCode, isAppError } from '../shared/errors.js';
import { sanitizeFilename } from '../shared/filenames.js';
import { newId } from '../shared/ids.js';
import type { Db } from '../storage/index.js';
import { inSpan } from '../telemetry/index.js';
import { eInvoiceSummary } from './einvoice.js';
import { type Made, make, PreparationHold, type Refused, type StepName } from './make.js';
import type { Caller, DocumentRequest, TemplatePort } from './ports.js';
import type { ProduceDeps } from './produce-deps.js';
import { type DirectPurpose, type Purpose, policyOf } from './purpose.js';
import { type FinalWrite, failureWrite, newDocument, type Produced, successWrite } from './record.js';
import { NoRenderSlot } from './render-slot.js';
import { sourceFilename, type Work } from './steps.js';

export type { ProduceDeps } from './produce-deps.js';
export type { Purpose } from './purpose.js';

/**
 * The one "make a document" use case. Every path that turns a request into a PDF (POST /pdf sync and async,
 * previews, template thumbnails, batch items) runs the same named steps (steps.ts, in make.ts):
 *
 *   check → admit → slot → prepare → resolve → render → finish → store → record
 *
 * and differs only in its purpose (purpose.ts), chosen where the work comes from. A direct document records
 * its outcome in its own transaction (`produceDocument`); a queued one returns it as a value
 * (`produceQueued`) that the job queue runs in the transaction that finishes the job.
 */

/** A document now: POST /pdf without async, a preview, a thumbnail. */
export interface ProduceInput {
  caller: Caller;
  request: DocumentRequest;
  purpose: Exclude<Purpose, { kind: 'queued' }>;
  test: boolean;
  /** Waits up to `ms` for a free slot instead of answering `rate_limited` at once (thumbnails). */
  slotWait?: { ms: number; stop: AbortSignal };
  signal?: AbortSignal;
  /** Resolves `template_id` instead of the stored templates (the editor's unsaved draft). */
  templates?: TemplatePort;
  /** Runs in the transaction that records a direct document (e.g. its idempotency key). */
  onRecorded?: (trx: Db, documentId: string) => Promise<void>;
}

/** A queued (background) document; its outcome is returned, and commits with its job. */
export interface QueuedInput {
  caller: Caller;
  request: DocumentRequest;
  test: boolean;
  signal: AbortSignal;
  queued: {
    id: string;
    createdAt: Date;
    /** A failure with this code will be retried: leave the document queued, record nothing. */
    retriable(code: ErrorCode): boolean;
  };
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

/** A direct document's answer: the file and the row it was recorded with. */
export type RecordedProduced = Produced & { row: DocumentRow };

/** A document now (direct), a preview or a thumbnail; a direct document is recorded before it is returned. */
export async function produceDocument(
  deps: ProduceDeps,
  input: ProduceInput & { purpose: DirectPurpose },
): Promise<RecordedProduced>;
export async function produceDocument(deps: ProduceDeps, input: ProduceInput): Promise<Produced>;
export async function produceDocument(deps: ProduceDeps, input: ProduceInput): Promise<Produced> {
  const startedAt = deps.clock.now();
  const hold = new PreparationHold(deps);
  if (!input.slotWait) hold.enter();
  try {
    const work: Work = { ...input, policy: policyOf(input.purpose, input.test) };
    const result = await make(deps, work, hold);
    if (!result.ok) {
      await result.admitted?.release();
      await recordDirectFailure(deps, input, result, startedAt);
      throw result.error;
    }
    if (!result.file) return result.produced;
    try {
      return { ...result.produced, row: await recordDirect(deps, input, result, result.file, startedAt) };
    } catch (err) {
      await result.admitted?.release();
      throw err;
    }
  } finally {
    hold.leave();
  }
}

/** The direct document's row and its ledger entry, one transaction; then the reservation is the count. */
async function recordDirect(
  deps: ProduceDeps,
  input: ProduceInput,
  made: Made,
  file: NonNullable<Made['file']>,
  startedAt: Date,
) {
  const document = newDocument(input, made.produced, {
    id: made.id,
    createdAt: made.createdAt,
    startedAt,
    prepared: made.prepared,
  });
  const write = successWrite(deps, input, made.produced, file, { document });
  const transaction = () =>
    deps.lifecycle.transact(async (trx) => {
      const recorded = await write(trx);
      // A new row is always written (only a queued document can be gone or already final).
      if (!recorded) throw new Error(`document ${made.id} was not recorded`);
      await input.onRecorded?.(trx, recorded.id);
      return recorded;
    });
  return inSpan('quire.storage.transaction', {}, transaction);
}

/** Steps whose failure means the render started: a direct one leaves a failed document (spec). */
const RENDERING: ReadonlySet<StepName> = new Set(['render', 'finish']);

/**
 * Which direct failures leave a record (spec: Document status): a direct render that failed while
 * rendering leaves a failed document; a full renderer queue and anything before rendering leave none.
 */
async function recordDirectFailure(
  deps: ProduceDeps,
  input: ProduceInput,
  refused: Refused,
  startedAt: Date,
): Promise<void> {
  if (input.purpose.kind !== 'direct') return;
  const code: ErrorCode = isAppError(refused.error) ? refused.error.code : 'internal_error';
  const prepared = refused.prepared;
  if (!RENDERING.has(refused.step) || code === 'service_busy' || !prepared) return;
  const document = newDocument(
    input,
    {
      filename: sanitizeFilename(prepared.filename || sourceFilename(prepared, undefined), '.pdf'),
      contentType: 'application/pdf',
      eInvoice: refused.einv ? eInvoiceSummary(refused.einv) : null,
    },
    { id: newId(), createdAt: deps.clock.now(), startedAt, prepared },
  );
  await deps.lifecycle.transact(failureWrite(deps.lifecycle, input.request, { document }, code));
}

/** A queued document's render (its job's handler): the outcome as a value, never a hand-off. */
export async function produceQueued(deps: ProduceDeps, input: QueuedInput): Promise<QueuedOutcome> {
  const work: Work = { ...input, policy: policyOf({ kind: 'queued' }, input.test) };
  const target: FinishTarget = { id: input.queued.id };
  const result = await make(deps, work, new PreparationHold(deps));
  if (result.ok) {
    if (!result.file) throw new Error('a queued document is always stored');
    return { kind: 'succeeded', write: successWrite(deps, work, result.produced, result.file, target) };
  }
  return queuedFailure(deps, input, target, result);
}

/** Steps before a queued document's own work began: their refusal leaves no record (spec). */
const BEFORE_WORK: ReadonlySet<StepName> = new Set(['check', 'admit', 'slot']);

function queuedFailure(
  deps: ProduceDeps,
  input: QueuedInput,
  target: FinishTarget,
  refused: Refused,
): QueuedOutcome {
  const err = refused.error;
  if (err instanceof NoRenderSlot) return { kind: 'no-slot' };
  const rendering = RENDERING.has(refused.step) || refused.step === 'store';
  const code: ErrorCode = isAppError(err) ? err.code : rendering ? 'render_failed' : 'internal_error';
  const error = { code, message: err instanceof Error ? err.message : String(err) };
  // Retried: the document stays queued and nothing is recorded (should no retry follow, the kind's
  // abandon fails it).
  if (input.queued.retriable(code)) return { kind: 'failed', error, write: null };
  const message = isAppError(err) ? err.message : 'The render failed.';
  // Spec: a background PDF refused before its work began (its admission, e.g. the plan's documents ran out
  // while it waited) leaves no record, only a pdf.failed that says why in words. Once its work began (the
  // template, Liquid, the render) it ends `failed` with its code and message, readable at its Location and
  // in the log (spec: Document status, queued/processing → failed).
  const write: FinalWrite = BEFORE_WORK.has(refused.step)
    ? async (trx) => {
        await deps.lifecycle.abandon(trx, input.queued.id, code, message);
        return null;
      }
    : failureWrite(deps.lifecycle, input.request, target, code, message);
  return { kind: 'failed', error, write };
}
