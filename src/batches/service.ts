import { Type } from 'typebox';
import type { Plan } from '../accounts/index.js';
import type { DocumentJson, DocumentRow, LinkSigner } from '../documents/index.js';
import type { EmailRequest } from '../email/index.js';
import { type FinishingOptions, finishingOptionsOf } from '../finishing/index.js';
import {
  defineJobKind,
  enqueueJob,
  type JobDefinition,
  type JobHandler,
  jobInput,
  jobKind,
  type PayloadOf,
} from '../jobs/index.js';
import { type BulkItem, type Caller, expiryFor, type Production } from '../production/index.js';
import type { WaitFor } from '../render/index.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { type BlobStore, chunks, type Db, lockKey } from '../storage/index.js';
import { recordEvent } from '../webhooks/index.js';
import { type FilenamePattern, parseFilenamePattern, renderFilename } from './filename-pattern.js';
import { type BatchJson, presentBatch, presentItem } from './present.js';
import {
  type BatchRow,
  countItems,
  findBatch,
  findBatchById,
  hasOpenItems,
  insertBatch,
  listBatches,
  listItems,
  markCanceled,
  markCompleted,
  queuedItemIds,
  storedItemFiles,
} from './repository.js';
import { writeBatchZip } from './zip.js';

/** The job that builds a finished batch's ZIP and records its completion. */
const BATCH_ZIP_JOB = jobKind('batch_zip', Type.Object({ batchId: Type.String() }));
/** Spec: Limits — 1 to 10,000 items per request, and at most the plan's batch_max_items. */
export const MAX_BATCH_ITEMS = 10_000;

export interface BatchDeps {
  db: Db;
  clock: Clock;
  blobs: BlobStore;
  signer: LinkSigner;
  publicUrl(): string;
  production: Pick<Production, 'checkRequest' | 'enqueueMany' | 'cancelQueued'>;
  documents: {
    present(row: DocumentRow): DocumentJson;
    findById(db: Db, id: string): Promise<DocumentRow | null>;
  };
  planOf(teamId: string): Promise<Plan | null>;
}

/** One item as the batch's body (or a spreadsheet row) gives it. */
export interface ItemInput {
  data?: Record<string, unknown>;
  filename?: string;
  metadata?: Record<string, unknown>;
  deliver?: { email?: EmailRequest };
}

/** What every item shares (spec: POST /batches body without items/spreadsheet). */
export interface BatchOptions extends FinishingOptions {
  template_id: string;
  template_version?: number;
  filename_pattern?: string;
  mode?: 'fast' | 'print';
  format?: unknown;
  orientation?: unknown;
  margins?: string;
  deliver?: { email?: EmailRequest };
  metadata?: Record<string, unknown>;
  /** Extension: every item waits for its page (render/page-wait.ts). */
  wait_for?: WaitFor;
}

export class BatchService {
  constructor(private readonly deps: BatchDeps) {}

  /**
   * Queues one document per item through production's bulk enqueue, with the batch row in the same
   * transaction: the whole batch is accepted or nothing is (spec: Limits, background work).
   */
  async create(
    caller: Caller,
    input: { options: BatchOptions; items: readonly ItemInput[]; test: boolean },
    /** Runs in the transaction that queues the batch (its idempotency key). */
    onQueued?: (trx: Db, batchId: string) => Promise<void>,
  ): Promise<BatchJson> {
    assertItemCount(input.items.length, caller.plan);
    const { options } = input;
    // What every item shares is the batch's fault, not each item's, and is refused before anything is
    // queued, asked once: finishing combinations, merge sources, the signing certificate, the template
    // (template_not_found; every item then follows the version resolved per render) and page options.
    const checked = await this.deps.production.checkRequest(
      caller,
      bulkItem(options, {}, 0, null, '').request,
      input.test,
    );
    const template = checked.html?.template;
    if (!template) throw new Error('a batch request names a stored template');
    const pattern =
      options.filename_pattern === undefined ? null : parseFilenamePattern(options.filename_pattern);
    const id = newId();
    const now = this.deps.clock.now();
    const row: BatchRow = {
      id,
      team_id: caller.teamId,
      test: input.test ? 1 : 0,
      template_id: template.id,
      template_version: options.template_version ?? null,
      total: input.items.length,
      metadata_json: options.metadata ? JSON.stringify(options.metadata) : null,
      canceled_at: null,
      completed_at: null,
      zip_key: null,
      zip_expires_at: null,
      created_at: now.toISOString(),
    };
    const items = input.items.map((item, index) => bulkItem(options, item, index, pattern, template.name));
    await this.deps.production.enqueueMany(
      caller,
      { test: input.test, batchId: id, items },
      async (trx, ids) => {
        await insertBatch(trx, row, ids);
        await onQueued?.(trx, id);
      },
    );
    return this.present(row);
  }

  async find(teamId: string, id: string, testOnly: boolean): Promise<BatchJson | null> {
    const row = await findBatch(this.deps.db, teamId, id, testOnly);
    return row ? this.present(row) : null;
  }

  async list(
    teamId: string,
    options: { testOnly: boolean; limit: number; before: { createdAt: string; id: string } | null },
  ): Promise<{ rows: BatchRow[]; data: BatchJson[] }> {
    const rows = await listBatches(this.deps.db, teamId, options);
    const data: BatchJson[] = [];
    for (const row of rows) data.push(await this.present(row));
    return { rows, data };
  }

  /** Items after `after` in item order, each as the spec's Batch item. */
  async items(batchId: string, options: { after: number; limit: number }) {
    const rows = await listItems(this.deps.db, batchId, options);
    const items = [];
    for (const item of rows) {
      const doc = await this.deps.documents.findById(this.deps.db, item.document_id);
      if (doc) items.push(presentItem(item.item_index, doc, this.deps.documents.present(doc)));
    }
    return { rows, items };
  }

  /**
   * Queued items become `canceled` together with their render jobs; an item whose job a worker already
   * took keeps rendering and finishes normally. The batch is `canceled` from now on and completes (ZIP,
   * batch.completed) once nothing is left waiting or rendering.
   * Set-based: per chunk of items, one transaction cancels the still-queued jobs (one UPDATE … RETURNING)
   * and exactly their documents (the lifecycle's cancelQueuedMany), so a 10,000-item batch is 20 short
   * transactions instead of 10,000 round trips in one long write lock. The first marks the batch canceled,
   * the last queues the ZIP when nothing is open. A crash between chunks leaves the rest queued under a
   * canceled batch: they render as a taken item would, and cancelling again cancels them.
   */
  async cancel(batch: BatchRow): Promise<BatchJson> {
    const { clock, db, production } = this.deps;
    const idChunks = chunks(await queuedItemIds(db, batch.id));
    if (idChunks.length === 0) idChunks.push([]);
    for (const [index, ids] of idChunks.entries()) {
      await db.transaction().execute(async (trx) => {
        if (index === 0) await markCanceled(trx, batch.id, clock.now().toISOString());
        await production.cancelQueued(trx, ids);
        if (index === idChunks.length - 1) await this.completeIfDone(trx, batch.id);
      });
    }
    const row = await findBatchById(db, batch.id);
    return this.present(row ?? batch);
  }

  /** The render job's extension point: after an item's final state, the batch may be done. */
  readonly afterItemFinal = async (trx: Db, document: { batchId: string | null }): Promise<void> => {
    if (document.batchId !== null) await this.completeIfDone(trx, document.batchId);
  };

  /**
   * Queues the batch's ZIP job when no item waits or renders. The job key makes it one job per batch
   * however many transactions see the batch done; it commits with the final item's state, so a crash
   * loses neither. The batch's key lock (after the item's own write) orders concurrent final items on
   * PostgreSQL, so the last one to commit sees all the others done (without it, two last items each saw the
   * other still rendering and neither queued the ZIP).
   */
  private async completeIfDone(trx: Db, batchId: string): Promise<void> {
    await lockKey(trx, `batch:${batchId}`);
    if (await hasOpenItems(trx, batchId)) return;
    const batch = await findBatchById(trx, batchId);
    if (!batch || batch.completed_at !== null) return;
    await enqueueJob(
      trx,
      this.deps.clock,
      jobInput(BATCH_ZIP_JOB, {
        // The service's own work: it does not count against the team's open_jobs.
        teamId: null,
        test: batch.test === 1,
        payload: { batchId },
        jobKey: `batch:${batchId}`,
      }),
    );
  }

  /**
   * The ZIP job: builds the ZIP from the stored PDFs (streaming), then in the job's finishing transaction
   * records the completion and batch.completed — once, guarded by completed_at.
   */
  private zipJobHandler(): JobHandler<PayloadOf<typeof BATCH_ZIP_JOB>> {
    return async (job) => {
      const batch = await findBatchById(this.deps.db, job.payload.batchId);
      if (!batch || batch.completed_at !== null) return { kind: 'succeeded' };
      const key = `batches/${batch.id}.zip`;
      const now = this.deps.clock.now();
      await writeBatchZip(this.deps.blobs, key, await storedItemFiles(this.deps.db, batch.id), now);
      const plan = await this.deps.planOf(batch.team_id);
      // Spec: stored like the PDFs — the plan's retention, test batches one day (also when the team is gone).
      const expires = plan ? expiryFor(now, plan, batch.test === 1) : new Date(now.getTime() + 86_400_000);
      return {
        kind: 'succeeded',
        commit: (trx) =>
          this.complete(trx, batch, {
            at: now.toISOString(),
            zipKey: key,
            zipExpiresAt: expires.toISOString(),
          }),
      };
    };
  }

  /**
   * Marks the batch completed and records batch.completed, once (guarded by completed_at). A batch whose
   * ZIP could not be built completes without one (`zip: null`) rather than staying `processing` forever.
   */
  private async complete(
    trx: Db,
    batch: { id: string; team_id: string; test: number },
    zip: { at: string; zipKey: string | null; zipExpiresAt: string | null },
  ): Promise<void> {
    if (!(await markCompleted(trx, batch.id, zip))) return;
    const done = await findBatchById(trx, batch.id);
    if (!done) return;
    const data = presentBatch(done, await countItems(trx, batch.id), this.links());
    await recordEvent(trx, this.deps.clock, {
      teamId: batch.team_id,
      livemode: batch.test !== 1,
      type: 'batch.completed',
      data: { ...data },
    });
  }

  /** The ZIP only copies stored files: light, so it also runs where QUIRE_WORKERS=0. */
  zipJob(): JobDefinition {
    return defineJobKind({
      kind: BATCH_ZIP_JOB,
      pool: 'light',
      handler: this.zipJobHandler(),
      maxAttempts: 5,
      retryDelaysMs: [5_000, 30_000, 120_000, 600_000],
      abandon: async (trx, job) => {
        const batch = await findBatchById(trx, job.payload.batchId);
        if (batch)
          await this.complete(trx, batch, {
            at: this.deps.clock.now().toISOString(),
            zipKey: null,
            zipExpiresAt: null,
          });
      },
    });
  }

  /** The stored ZIP of a batch while its link may be served, else null. */
  async zipFile(batchId: string) {
    const row = await findBatchById(this.deps.db, batchId);
    if (
      !row?.zip_key ||
      !row.zip_expires_at ||
      Date.parse(row.zip_expires_at) <= this.deps.clock.now().getTime()
    )
      return null;
    return this.deps.blobs.read(row.zip_key);
  }

  /** Retention: a ZIP past its expiry is forgotten by the row first, then deleted. */
  async sweepZips(now: Date): Promise<number> {
    const expired = await this.deps.db
      .selectFrom('batches')
      .select(['id', 'zip_key'])
      .where('zip_key', 'is not', null)
      .where('zip_expires_at', '<=', now.toISOString())
      .limit(500)
      .execute();
    for (const row of expired) {
      await this.deps.db.updateTable('batches').set({ zip_key: null }).where('id', '=', row.id).execute();
      if (row.zip_key) await this.deps.blobs.delete(row.zip_key);
    }
    return expired.length;
  }

  async findRow(teamId: string, id: string, testOnly: boolean): Promise<BatchRow | null> {
    return findBatch(this.deps.db, teamId, id, testOnly);
  }

  async present(row: BatchRow): Promise<BatchJson> {
    return presentBatch(row, await countItems(this.deps.db, row.id), this.links());
  }

  private links() {
    return {
      signer: this.deps.signer,
      publicUrl: this.deps.publicUrl(),
      nowMs: this.deps.clock.now().getTime(),
    };
  }
}

/** Items (or spreadsheet rows) one batch may have on this plan: also the parse result's `max_rows`. */
export function maxItems(plan: Plan): number {
  return Math.min(MAX_BATCH_ITEMS, plan.batch_max_items);
}

/** Refused whole over the limits (spec: Limits, batch items). */
function assertItemCount(count: number, plan: Plan): void {
  const max = maxItems(plan);
  if (count < 1)
    throw new AppError('invalid_request', 'A batch needs at least one item (or spreadsheet row).');
  if (count > max) {
    throw new AppError(
      'invalid_request',
      `A batch on the ${plan.name} plan holds at most ${max} items; this one has ${count}. Split it into smaller batches.`,
      { limit: 'batch_max_items', max },
    );
  }
}

/** An item's own request: the batch's shared options, its data, and its own file name, metadata and deliver. */
function bulkItem(
  options: BatchOptions,
  item: ItemInput,
  index: number,
  pattern: FilenamePattern | null,
  templateName: string,
): BulkItem {
  const filename =
    item.filename ?? (pattern ? renderFilename(pattern, item.data ?? {}, index) : templateName);
  const metadata = item.metadata ?? options.metadata;
  const deliver = item.deliver ?? options.deliver;
  return {
    filename,
    request: {
      template_id: options.template_id,
      ...(options.template_version === undefined ? {} : { template_version: options.template_version }),
      ...(item.data === undefined ? {} : { data: item.data }),
      ...(options.mode === undefined ? {} : { mode: options.mode }),
      ...(options.format === undefined ? {} : { format: options.format }),
      ...(options.orientation === undefined ? {} : { orientation: options.orientation }),
      ...(options.margins === undefined ? {} : { margins: options.margins }),
      ...finishingOptionsOf(options),
      filename,
      ...(metadata === undefined ? {} : { metadata }),
      ...(deliver === undefined ? {} : { deliver }),
      ...(options.wait_for === undefined ? {} : { wait_for: options.wait_for }),
    },
  };
}
