import { newId } from '../shared/ids.js';
import type { Db } from '../storage/index.js';
import type { Admitted } from './admission.js';
import { PreparationHold } from './make.js';
import type { Caller, DocumentRequest } from './ports.js';
import type { RecordedProduced } from './produce.js';
import type { ProduceDeps } from './produce-deps.js';
import { type DirectPurpose, policyOf } from './purpose.js';
import { newDocument, type Produced, storeFile, successWrite } from './record.js';
import { admit, slot, type Work } from './steps.js';

/**
 * A document whose file another capability makes (the PDF tools' transform of a caller's PDF) instead of
 * the renderer: admitted, counted, stored and recorded as a direct POST /pdf document is (its row, usage,
 * `pdf.created` event, signed links), the file made once it is admitted and holds a team render slot.
 */
export interface MadeFileInput {
  caller: Caller;
  test: boolean;
  purpose: DirectPurpose;
  filename: string;
  /** The caller's key-values (the spec's `metadata`). */
  metadata?: Record<string, unknown>;
  make(): Promise<{ file: Buffer; pages: number; signed: boolean }>;
  /** Runs in the transaction that records the document (e.g. its idempotency key). */
  onRecorded?: (trx: Db, documentId: string) => Promise<void>;
}

export async function produceMadeFile(deps: ProduceDeps, input: MadeFileInput): Promise<RecordedProduced> {
  const startedAt = deps.clock.now();
  const request: DocumentRequest = {
    filename: input.filename,
    ...(input.metadata ? { metadata: input.metadata } : {}),
  };
  const work: Work = {
    caller: input.caller,
    request,
    test: input.test,
    policy: policyOf(input.purpose, input.test),
  };
  const hold = new PreparationHold(deps);
  hold.enter();
  let admitted: Admitted | null = null;
  try {
    admitted = await admit(deps, work);
    const lease = await slot(deps, work);
    let made: Awaited<ReturnType<MadeFileInput['make']>>;
    try {
      made = await input.make();
    } finally {
      hold.leave();
      await lease.release();
    }
    return await record(deps, { ...input, request, startedAt, admitted }, made);
  } catch (err) {
    await admitted?.release();
    throw err;
  } finally {
    hold.leave();
  }
}

async function record(
  deps: ProduceDeps,
  input: MadeFileInput & { request: DocumentRequest; startedAt: Date; admitted: Admitted | null },
  made: { file: Buffer; pages: number; signed: boolean },
): Promise<RecordedProduced> {
  const id = newId();
  const createdAt = deps.clock.now();
  const produced: Produced = {
    file: made.file,
    contentType: 'application/pdf',
    filename: input.filename,
    pages: made.pages,
    warnings: [],
    blockedResources: [],
    blockedCount: 0,
    eInvoice: null,
    metadata: input.metadata ?? null,
    row: null,
  };
  const policy = policyOf(input.purpose, input.test);
  const file = await storeFile(deps, produced, {
    id,
    caller: input.caller,
    test: input.test,
    storage: policy.storage,
    createdAt,
    usagePeriod: input.admitted?.period ?? null,
    prepared: null,
    signed: made.signed,
  });
  const document = newDocument(input, produced, {
    id,
    createdAt,
    startedAt: input.startedAt,
    prepared: null,
  });
  const write = successWrite(deps, input, produced, file, { document });
  const row = await deps.lifecycle.transact(async (trx) => {
    const recorded = await write(trx);
    if (!recorded) throw new Error(`document ${id} was not recorded`);
    await input.onRecorded?.(trx, recorded.id);
    return recorded;
  });
  return { ...produced, row };
}
