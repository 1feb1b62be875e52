import { type Static, Type } from 'typebox';
import type { NewDocument } from '../documents/index.js';
import { resolveFinishing, type StoredProtect, sealQueuedProtect } from '../finishing/index.js';
import {
  assertWithinJobLimits,
  cancelJobsByKeys,
  type EnqueueInput,
  enqueueJob,
  enqueueJobs,
  jobInput,
  jobKind,
} from '../jobs/index.js';
import { sanitizeFilename } from '../shared/filenames.js';
import { newId } from '../shared/ids.js';
import type { Db } from '../storage/index.js';
import type { Admitted } from './admission.js';
import { type EInvoicePlan, eInvoiceSummary } from './einvoice.js';
import type { Caller, DocumentRequest } from './ports.js';
import { type CheckedHtml, checkHtml, type PrepareDeps } from './prepare.js';
import type { ProduceDeps } from './produce.js';
import { check } from './steps.js';

/** What checking a request without rendering needs: preparing its HTML, reading merge sources, opening keys. */
type CheckDeps = PrepareDeps & Pick<ProduceDeps, 'clock' | 'storedPdfs' | 'certificates'>;
/** What writing queued documents and their jobs needs. */
type QueueDeps = Pick<ProduceDeps, 'clock' | 'admission' | 'lifecycle' | 'passwords'>;

/**
 * Queued documents (spec: POST /pdf async, POST /batches): what can be refused now is refused now —
 * checked without rendering anything (checkRequest), then admitted once (admission.admit) — and the
 * documents and their render jobs are written in one transaction. The job renders each one once.
 */

/**
 * What the render job carries: the queued document and its validated request (one value, as sent), except
 * `protect`, whose passwords are sealed beside it. The request was checked in full by its route's schema
 * (Ajv, src/http/validator.ts) when it was accepted; a second validator here could refuse what that one
 * accepted, so the payload's schema asks only for an object. Of the sealed `protect` it asks for what
 * finishing/sealed-protect.ts opens.
 */
const RenderJobPayload = Type.Object({
  documentId: Type.String(),
  request: Type.Unsafe<DocumentRequest>(Type.Object({})),
  protect: Type.Optional(
    Type.Unsafe<StoredProtect>(
      Type.Object({
        owner_password_set: Type.Literal(true),
        user_password_set: Type.Boolean(),
        sealed_passwords: Type.String(),
      }),
    ),
  ),
});
export type RenderJobPayload = Static<typeof RenderJobPayload>;

/** The job kind of a queued document's render. */
export const RENDER_JOB = jobKind('render', RenderJobPayload);

/** What a queued request's check learned: its e-invoice and (not XML) its template and name. */
export interface CheckedRequest {
  einv: EInvoicePlan | null;
  /** Null for XRechnung XML (nothing to render). */
  html: CheckedHtml | null;
}

/**
 * Everything about a request that will be queued which can fail without rendering: the e-invoice
 * (invalid_e_invoice), finishing combinations, merge sources (a wrong id or file), the signing
 * certificate (only its id is stored with the job; the key is opened again when the document is signed),
 * the template (template_not_found), page options, and raw html's Liquid parse (template_render_error).
 * A batch asks it once for what all its items share.
 */
export async function checkRequest(
  deps: CheckDeps,
  caller: Caller,
  request: DocumentRequest,
  test: boolean,
): Promise<CheckedRequest> {
  // The render's own first step (steps.ts `check`): the e-invoice and every finishing combination.
  const { einv, finishing } = await check(request);
  // Merge sources read and checked, the certificate's key opened (only its id is stored with the job).
  if (finishing) {
    const resolved = await resolveFinishing(finishing, {
      teamId: caller.teamId,
      test,
      watermark: test,
      now: deps.clock.now(),
      storedPdfs: deps.storedPdfs,
      signingKeys: deps.certificates,
    });
    await resolved.ready();
  }
  const html = einv?.kind === 'xml' ? null : await checkHtml(deps, caller.teamId, request, einv);
  return { einv, html };
}

/**
 * `async: true` (spec: POST /pdf → 202): the request checked and admitted, then the queued document and its
 * job written in one transaction, refused whole with `rate_limited` over open_jobs or test_jobs_per_day.
 */
export async function enqueueDocument(
  deps: CheckDeps & QueueDeps,
  caller: Caller,
  request: DocumentRequest,
  test: boolean,
  /** Runs in the transaction that queues the document (e.g. its idempotency key). */
  onQueued?: (trx: Db, documentId: string) => Promise<void>,
): Promise<{ id: string; status: 'queued'; created_at: string }> {
  const { einv, html } = await checkRequest(deps, caller, request, test);
  const email = request.deliver?.email;
  const createdAt = deps.clock.now();
  const admitted = await deps.admission.admit({
    caller,
    test,
    count: 1,
    // Spec: a background PDF is always stored, so a full quota or a full disk is refused now.
    storage: 'required',
    emails: email ? [email.to] : [],
    at: createdAt,
  });
  const doc = queuedDocument(caller, {
    createdAt,
    test,
    filename: html
      ? sanitizeFilename(html.filename, '.pdf')
      : sanitizeFilename(request.filename ?? einv?.defaultName ?? 'document', '.xml'),
    contentType: html ? 'application/pdf' : 'application/xml',
    templateId: html?.template?.id ?? null,
    request,
    batchId: null,
    eInvoice: einv ? eInvoiceSummary(einv) : null,
  });
  await releasingOnFailure(admitted, () =>
    deps.lifecycle.transact(async (trx) => {
      await enqueueJob(trx, deps.clock, renderJob(deps, caller, doc, request, undefined));
      await deps.lifecycle.createQueued(trx, doc);
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
function renderJobKey(documentId: string): string {
  return `document:${documentId}`;
}

/**
 * Many queued documents of one template at once (spec: POST /batches): admitted once for all of them (a
 * batch is refused whole when its live documents do not all fit the plan and cap; email limits for every
 * address; storage), then every document and its render job in one transaction, refused whole over
 * open_jobs or test_jobs_per_day. What the items share was checked by the caller (checkRequest); an item
 * whose data breaks the template fails alone when it renders, like any background PDF.
 * Returns the document ids in item order.
 */
export async function enqueueDocuments(
  deps: QueueDeps,
  caller: Caller,
  input: { test: boolean; batchId: string; items: readonly BulkItem[] },
  /** Runs in the same transaction after the documents are queued (e.g. the batch row and its items). */
  onQueued: (trx: Db, documentIds: string[]) => Promise<void>,
): Promise<string[]> {
  const createdAt = deps.clock.now();
  const admitted = await deps.admission.admit({
    caller,
    test: input.test,
    count: input.items.length,
    storage: 'required',
    emails: input.items.flatMap((item) => item.request.deliver?.email?.to ?? []),
    at: createdAt,
  });
  const docs = input.items.map((item) =>
    queuedDocument(caller, {
      createdAt,
      test: input.test,
      filename: sanitizeFilename(item.filename, '.pdf'),
      contentType: 'application/pdf',
      templateId: item.request.template_id,
      request: item.request,
      batchId: input.batchId,
    }),
  );
  await releasingOnFailure(admitted, () =>
    deps.lifecycle.transact(async (trx) => {
      // Multi-row inserts: 10,000 items one row at a time took seconds inside the write lock.
      await enqueueJobs(
        trx,
        deps.clock,
        docs.map((doc, i) =>
          renderJob(deps, caller, doc, (input.items[i] as BulkItem).request, renderJobKey(doc.id)),
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
 * Withdraws bulk documents still waiting (a batch cancel), in the caller's transaction: their render jobs
 * are canceled, and exactly the documents whose job was still waiting become `canceled` (one a worker took
 * keeps rendering). Returns how many were canceled.
 */
export async function cancelQueued(
  deps: Pick<ProduceDeps, 'clock' | 'lifecycle'>,
  trx: Db,
  ids: readonly string[],
): Promise<number> {
  const jobKeys = new Set(await cancelJobsByKeys(trx, deps.clock, RENDER_JOB.name, ids.map(renderJobKey)));
  return deps.lifecycle.cancelQueuedMany(
    trx,
    ids.filter((id) => jobKeys.has(renderJobKey(id))),
  );
}

/**
 * The reservation the admission took counts once each document succeeds (and is given back when one fails
 * or is canceled); if queueing them fails, all of it is given back now.
 */
async function releasingOnFailure(admitted: Admitted, queue: () => Promise<void>): Promise<void> {
  try {
    await queue();
  } catch (err) {
    await admitted.release();
    throw err;
  }
}

function queuedDocument(
  caller: Caller,
  fields: Pick<NewDocument, 'test' | 'filename' | 'contentType' | 'templateId' | 'batchId' | 'createdAt'> & {
    request: DocumentRequest;
    eInvoice?: object | null;
  },
): NewDocument {
  return {
    id: newId(),
    teamId: caller.teamId,
    test: fields.test,
    createdAt: fields.createdAt,
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

function renderJob(
  deps: Pick<QueueDeps, 'passwords'>,
  caller: Caller,
  doc: NewDocument,
  request: DocumentRequest,
  jobKey: string | undefined,
): EnqueueInput {
  return jobInput(RENDER_JOB, {
    teamId: caller.teamId,
    test: doc.test,
    payload: { documentId: doc.id, ...sealQueuedProtect(deps.passwords, request) },
    ...(jobKey === undefined ? {} : { jobKey }),
  });
}
