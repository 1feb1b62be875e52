import type {
  DocumentLifecycle,
  DocumentOutcome,
  DocumentRow,
  FinishTarget,
  NewDocument,
  ProducedFile,
  RenderTimings,
} from '../documents/index.js';
import type { DeliveryState } from '../email/index.js';
import type { AccessibilityReport } from '../finishing/index.js';
import type { ErrorCode } from '../shared/errors.js';
import type { Warning } from '../shared/warnings.js';
import type { BlobStore, Db } from '../storage/index.js';
import { inSpan } from '../telemetry/index.js';
import type { Admission } from './admission.js';
import type { EInvoiceSummary } from './einvoice.js';
import type { Caller, DeliveryPort, DocumentRequest } from './ports.js';
import type { PreparedHtml } from './prepare.js';
import { decideStorage, expiryFor, type StorageLedger, type StoragePolicy } from './storage-policy.js';

/**
 * The last steps of a produced document: its file stored (or not, by the storage policy), and its final
 * outcome as a value — the write that records it (documents lifecycle, its email, the outbox event) in
 * whatever transaction the caller runs it: a direct render's own, or the job queue's lease transaction.
 */
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
  /** The direct document's record; null for previews, thumbnails and queued documents. */
  row: DocumentRow | null;
  /** Render timing for the activity log; absent for XRechnung XML (nothing rendered). */
  timings?: RenderTimings;
  /** The accessibility report the request asked for (extension `accessibility_report`), else null. */
  accessibility?: AccessibilityReport | null;
}

/** A final write, run inside the transaction that records the document (and, queued, finishes its job). */
export type FinalWrite = (trx: Db) => Promise<DocumentRow | null>;

export interface RecordDeps {
  blobs: Pick<BlobStore, 'put'>;
  ledger: StorageLedger;
  admission: Admission;
  lifecycle: DocumentLifecycle;
  delivery: DeliveryPort;
}

/** Whose file is kept, and how: what storing and recording need to know of the request. */
export interface StoreContext {
  id: string;
  caller: Caller;
  test: boolean;
  storage: StoragePolicy;
  createdAt: Date;
  /** The period ('YYYY-MM') a live document counts in; null: test (never counted). */
  usagePeriod: string | null;
  prepared: PreparedHtml | null;
  signed: boolean;
}

/** Stores the file when the policy and the quota allow it; the file's columns for the record. */
export async function storeFile(
  deps: RecordDeps,
  produced: Produced,
  context: StoreContext,
): Promise<ProducedFile> {
  const { caller, test, prepared } = context;
  // Low disk pauses storing: a live binary answer is still returned, just not kept.
  const policy = context.storage === 'if_room' && deps.admission.storingPaused() ? 'never' : context.storage;
  const store = await decideStorage(deps.ledger, caller, { test, policy, bytes: produced.file.length });
  const blobKey = store
    ? `documents/${context.id}.${produced.contentType === 'application/xml' ? 'xml' : 'pdf'}`
    : null;
  const bytes = { 'quire.bytes': produced.file.length };
  if (blobKey) await inSpan('quire.storage.blob_write', bytes, () => deps.blobs.put(blobKey, produced.file));
  return {
    pages: produced.pages,
    bytes: produced.file.length,
    blobKey,
    expiresAt: blobKey ? expiryFor(context.createdAt, caller.plan, test) : null,
    usagePeriod: test ? null : context.usagePeriod,
    mode: prepared?.page.mode ?? null,
    templateVersion: prepared?.template?.version ?? null,
    signed: context.signed,
    accessibility: produced.accessibility ?? null,
    // A queued source_url document learns its name (the page title) only now.
    ...(prepared?.sourceUrl ? { filename: produced.filename } : {}),
  };
}

/** The succeeded outcome's write: the email queued (or refused) and the record, in one transaction. */
export function successWrite(
  deps: RecordDeps,
  request: { caller: Caller; test: boolean; request: DocumentRequest },
  produced: Produced,
  file: ProducedFile,
  target: FinishTarget,
): FinalWrite {
  const report = {
    warnings: produced.warnings,
    blockedResources: produced.blockedResources,
    ...(produced.timings ? { timings: produced.timings } : {}),
  };
  const documentId = 'document' in target ? target.document.id : target.id;
  return async (trx) => {
    const delivery = await queueDelivery(deps, request, trx, {
      id: documentId,
      stored: file.blobKey !== null,
      filename: produced.filename,
    });
    const outcome: DocumentOutcome = {
      status: 'succeeded',
      file,
      report,
      eInvoice: produced.eInvoice,
      delivery,
    };
    return deps.lifecycle.finish(trx, target, outcome);
  };
}

/** The failed outcome's write; a document that failed cannot be emailed: nothing to attach. */
export function failureWrite(
  lifecycle: DocumentLifecycle,
  request: DocumentRequest,
  target: FinishTarget,
  code: ErrorCode,
  message?: string,
): FinalWrite {
  const delivery: DeliveryState | null = request.deliver?.email
    ? { email: { status: 'failed', reason: 'not_stored' } }
    : null;
  return (trx) =>
    lifecycle.finish(trx, target, {
      status: 'failed',
      code,
      delivery,
      ...(message === undefined ? {} : { message }),
    });
}

/** A direct render's row, written finished (it never was queued). */
export function newDocument(
  input: { caller: Caller; test: boolean; request: DocumentRequest },
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

/** deliver.email of a recorded document: its email queued (or refused) in the record's transaction. */
async function queueDelivery(
  deps: RecordDeps,
  input: { caller: Caller; test: boolean; request: DocumentRequest },
  trx: Db,
  doc: { id: string; stored: boolean; filename: string },
): Promise<DeliveryState | null> {
  const email = input.request.deliver?.email;
  if (!email) return null;
  return deps.delivery.queue(trx, {
    budget: { teamId: input.caller.teamId, emailsPerDay: input.caller.plan.emails_per_day },
    documentId: doc.id,
    test: input.test,
    stored: doc.stored,
    filename: doc.filename,
    email,
  });
}

/** Whole milliseconds: the activity log shows timing, not benchmark precision. */
export function roundedTimings(
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
