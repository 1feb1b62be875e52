import type { Clock } from '../shared/clock.js';
import { pick } from '../shared/pick.js';
import { chunks, type Db } from '../storage/index.js';
import { type EventDocument, recordPdfEvent } from '../webhooks/index.js';
import { type ActivityDetails, activityRow, insertActivity, type RenderTimings } from './activity.js';
import { type DocumentRow, findDocumentById } from './repository.js';
import { mayMove, movableFrom, OPEN_STATUSES, TRANSITIONS } from './states.js';

/**
 * The one document lifecycle (spec: Document status). Every way a document comes into being ends here,
 * and every move is one of states.ts's transitions, checked against its table: an update changes only
 * rows in a status the move may start from (a late second attempt cannot overwrite a finished document
 * or announce it twice). expireFile (the stored file is gone; the record stays) changes no status.
 *
 * Each transition writes the row, its status, its activity entry (activity.ts: one insert, no extra read)
 * and its outbox event (pdf.created / pdf.failed) through the transaction it is given, so the state, its
 * log and the announcement commit or vanish together.
 * Nothing outside this file writes document rows or statuses.
 */
export interface LifecycleDeps {
  db: Db;
  clock: Clock;
  /** The spec's Document object (signed links) for event data, as GET /pdf/<id> shows it. */
  present(row: DocumentRow): EventDocument;
  /** The usage ledger (owned by accounts); absent where nothing is counted (some tests). */
  usage?: UsageLedgerPort;
}

/**
 * The usage ledger as the lifecycle writes it: a counted document's ledger row commits with the document,
 * and a live background document that ends without being counted gives its reservation back.
 */
export interface UsageLedgerPort {
  record(trx: Db, entry: { documentId: string; teamId: string; period: string; at: Date }): Promise<void>;
  /** Gives back `count` reservations (default 1) of one team and period. */
  releaseIn(trx: Db, teamId: string, period: string, count?: number): Promise<void>;
  /** Reservations the writing process held became durable in `trx` (queued rows, a ledger row). */
  settle?(trx: Db, teamId: string, period: string, count: number): Promise<void>;
}

/** 'YYYY-MM': the monthly UTC period a queued live document reserved its count in (when it was queued). */
export function usagePeriodOf(createdAt: Date | string): string {
  return new Date(createdAt).toISOString().slice(0, 7);
}

/** What is known of a document before it is rendered. */
export interface NewDocument {
  id: string;
  teamId: string;
  test: boolean;
  createdAt: Date;
  /**
   * A direct render's request arrival: its `processing` activity entry, so "processing → succeeded after"
   * spans the whole request (Liquid, render, finishing, storing), never less than the render's own timing.
   * Absent for queued documents (a worker's start() records theirs).
   */
  startedAt?: Date;
  filename: string;
  contentType: string;
  templateId: string | null;
  templateVersion: number | null;
  mode: 'fast' | 'print' | null;
  metadata: Record<string, unknown> | null;
  /** `{standard, profile, xml_filename}` of an e-invoice. */
  eInvoice: object | null;
  batchId: string | null;
  /** The document's `delivery` object (spec: Document), e.g. `{ email: { status: 'queued' } }`. */
  delivery: object | null;
}

/** What a successful render adds. `blobKey` null: not stored (the file was only returned). */
export interface ProducedFile {
  pages: number | null;
  bytes: number;
  blobKey: string | null;
  expiresAt: Date | null;
  /** The period ('YYYY-MM') a live document counts in (exactly once); null: not counted (test). */
  usagePeriod: string | null;
  mode: 'fast' | 'print' | null;
  templateVersion: number | null;
  /** A name known only after the render (a source_url page's title): replaces the queued one. */
  filename?: string;
  /** The file carries a PAdES signature (extension `signed`). */
  signed?: boolean;
  /** The accessibility report the request asked for (extension `accessibility_report`). */
  accessibility?: object | null;
}

/** What a render reported besides the file; event data carries it (spec: extra fields of event data). */
export interface RenderReport {
  warnings: readonly unknown[];
  blockedResources: readonly string[];
  /** For the activity log; absent where nothing was rendered (XRechnung XML). */
  timings?: RenderTimings;
}

/** Which document a final outcome ends: a direct render's, written now, or a queued one by id. */
export type FinishTarget = { document: NewDocument } | { id: string };

/**
 * How a render ended. `delivery`: the document's `delivery` object as it now stands (null: unchanged / none).
 * `code` of a failure is the spec's error code (error_code of the record and of pdf.failed).
 */
export type DocumentOutcome =
  | {
      status: 'succeeded';
      file: ProducedFile;
      report: RenderReport;
      eInvoice: object | null;
      delivery: object | null;
    }
  | {
      status: 'failed';
      code: string;
      delivery: object | null;
      /** The failure in words: kept on a background document (spec: Document `error_message`) and its event. */
      message?: string;
    };

/** Runs `write` in one transaction. */
export type Transact = <T>(write: (trx: Db) => Promise<T>) => Promise<T>;

export class DocumentLifecycle {
  constructor(private readonly deps: LifecycleDeps) {}

  /** A fresh transaction (callers that have none of their own, e.g. a direct render). */
  readonly transact: Transact = (write) => this.deps.db.transaction().execute(write);

  /** A background document waiting for its render; written with its job. No event yet. */
  async createQueued(trx: Db, doc: NewDocument): Promise<void> {
    await trx.insertInto('documents').values(baseRow(doc, TRANSITIONS.queue.to)).execute();
    await insertActivity(trx, [activityRow(doc, 'queued', doc.createdAt)]);
    await this.settleReservations(trx, [doc]);
  }

  /** Many queued documents at once (a batch's items): the same rows as createQueued, in multi-row inserts. */
  async createQueuedMany(trx: Db, docs: readonly NewDocument[]): Promise<void> {
    for (const chunk of chunks(docs.map((doc) => baseRow(doc, TRANSITIONS.queue.to))))
      await trx.insertInto('documents').values(chunk).execute();
    await insertActivity(
      trx,
      docs.map((doc) => activityRow(doc, 'queued', doc.createdAt)),
    );
    await this.settleReservations(trx, docs);
  }

  /** A worker picked the document up (again, after a retried attempt: each attempt is logged). */
  async start(id: string, teamId: string): Promise<void> {
    const at = this.now();
    await this.transact(async (trx) => {
      const result = await trx
        .updateTable('documents')
        .set({ status: TRANSITIONS.start.to, updated_at: at })
        .where('id', '=', id)
        .where('status', 'in', movableFrom('start'))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0)
        await insertActivity(trx, [activityRow({ id, teamId }, 'processing', at)]);
    });
  }

  /**
   * A render's final outcome (spec: Document status), the one writer of `succeeded` and `failed` after a
   * render: a direct render's row is written finished (`target.document`, with its `processing` entry from
   * the request's arrival); a queued one (`target.id`) moves only while still open. The ledger row of a
   * counted document, the reservation of a failed live queued one, the activity entry and the pdf.* event
   * commit with it. Null: the queued document is gone or no longer open (nothing written).
   */
  async finish(trx: Db, target: { document: NewDocument }, outcome: DocumentOutcome): Promise<DocumentRow>;
  async finish(trx: Db, target: FinishTarget, outcome: DocumentOutcome): Promise<DocumentRow | null>;
  async finish(trx: Db, target: FinishTarget, outcome: DocumentOutcome): Promise<DocumentRow | null> {
    const name = outcome.status === 'succeeded' ? 'succeed' : 'fail';
    const changes = outcomeColumns(outcome);
    const at = this.now();
    let row: DocumentRow | null;
    if ('document' in target) {
      const doc = target.document;
      row = { ...baseRow(doc, TRANSITIONS[name].to), ...changes, updated_at: at };
      await trx.insertInto('documents').values(row).execute();
      // A direct render was processing from its request on; both entries in one insert.
      await insertActivity(trx, [
        activityRow(doc, 'processing', doc.startedAt ?? doc.createdAt),
        activityRow(doc, outcome.status, at, outcomeDetails(outcome)),
      ]);
      // The reservation this process held is now the document's count.
      if (outcome.status === 'succeeded' && outcome.file.usagePeriod)
        await this.deps.usage?.settle?.(trx, doc.teamId, outcome.file.usagePeriod, 1);
    } else {
      const before = await findDocumentById(trx, target.id);
      if (!before || !mayMove(name, before.status)) return null;
      const result = await trx
        .updateTable('documents')
        .set({ ...changes, status: TRANSITIONS[name].to, updated_at: at })
        .where('id', '=', target.id)
        .where('status', 'in', movableFrom(name))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return null;
      await insertActivity(trx, [
        activityRow({ id: before.id, teamId: before.team_id }, outcome.status, at, outcomeDetails(outcome)),
      ]);
      if (outcome.status === 'failed') await this.releaseIfPending(trx, before);
      row = await findDocumentById(trx, target.id);
      if (!row) return null;
    }
    if (outcome.status === 'succeeded') {
      await this.count(trx, row, outcome.file);
      await this.emit(trx, row, 'pdf.created', { report: outcome.report });
    } else
      await this.emit(
        trx,
        row,
        'pdf.failed',
        outcome.message === undefined ? {} : { errorMessage: outcome.message },
      );
    return row;
  }

  /** The email (or other delivery) of a document changed state: shown as the document's `delivery`. */
  async setDelivery(trx: Db, id: string, delivery: object): Promise<void> {
    await trx
      .updateTable('documents')
      .set({ delivery_json: JSON.stringify(delivery), updated_at: this.now() })
      .where('id', '=', id)
      .execute();
  }

  /**
   * A queued document that failed before anything was rendered (e.g. the plan's documents ran out while
   * it waited): no record remains, and pdf.failed says why in words (spec: POST /pdf async).
   */
  async abandon(trx: Db, id: string, code: string, message: string): Promise<void> {
    const row = await findDocumentById(trx, id);
    if (!row || !mayMove('abandon', row.status)) return;
    await this.releaseIfPending(trx, row);
    const failed: DocumentRow = {
      ...row,
      status: TRANSITIONS.abandon.to,
      error_code: code,
      updated_at: this.now(),
    };
    await insertActivity(trx, [
      activityRow({ id, teamId: row.team_id }, 'failed', failed.updated_at, {
        error_code: code,
        error_message: message,
      }),
    ]);
    if (row.batch_id === null) await trx.deleteFrom('documents').where('id', '=', id).execute();
    // A batch item stays listed (spec: Batch item has status, error_code, error_message): its batch's
    // counts and items page would otherwise lose it.
    else
      await trx
        .updateTable('documents')
        .set({
          status: failed.status,
          error_code: code,
          error_message: message,
          updated_at: failed.updated_at,
        })
        .where('id', '=', id)
        .execute();
    await this.emit(trx, failed, 'pdf.failed', { errorMessage: message });
  }

  /**
   * Many queued documents that will not be rendered (a batch cancel): what `cancel` does for each, set-based.
   * Per chunk, one UPDATE … RETURNING changes only rows still `queued` (a document a worker started stays
   * `processing`), then one multi-row insert of their activity entries and one reservation release per
   * (team, period) of the live ones. Runs in the caller's transaction; returns how many were canceled.
   */
  async cancelQueuedMany(trx: Db, ids: readonly string[]): Promise<number> {
    const at = this.now();
    let canceled = 0;
    for (const chunk of chunks(ids)) {
      const rows = await trx
        .updateTable('documents')
        .set({ status: TRANSITIONS.cancel.to, updated_at: at })
        .where('id', 'in', chunk)
        .where('status', 'in', movableFrom('cancel'))
        .returning(['id', 'team_id', 'test', 'created_at'])
        .execute();
      canceled += rows.length;
      await insertActivity(
        trx,
        rows.map((row) => activityRow({ id: row.id, teamId: row.team_id }, 'canceled', at)),
      );
      for (const [key, count] of liveReservations(rows)) {
        const [teamId, period] = key.split('\n') as [string, string];
        await this.deps.usage?.releaseIn(trx, teamId, period, count);
      }
    }
    return canceled;
  }

  /**
   * The stored file's retention ended: the record drops its pointers before the blobs are deleted, so a
   * reader never sees a key whose file is half gone. Returns the keys to delete.
   */
  async expireFile(id: string): Promise<string[]> {
    const row = await findDocumentById(this.deps.db, id);
    if (!row) return [];
    await this.deps.db
      .updateTable('documents')
      .set({ blob_key: null, thumbnail_key: null, stored_bytes: 0, updated_at: this.now() })
      .where('id', '=', id)
      .execute();
    return [row.blob_key, row.thumbnail_key].filter((key): key is string => key !== null);
  }

  /** The ledger row of a counted document (keyed by the document: never counted twice). */
  private async count(trx: Db, row: DocumentRow, file: ProducedFile): Promise<void> {
    if (!file.usagePeriod) return;
    await this.deps.usage?.record(trx, {
      documentId: row.id,
      teamId: row.team_id,
      period: file.usagePeriod,
      at: this.deps.clock.now(),
    });
  }

  /** Live queued documents now carry the reservations their enqueue took: the process holds them no more. */
  private async settleReservations(trx: Db, docs: readonly NewDocument[]): Promise<void> {
    const rows = docs.map((doc) => ({
      team_id: doc.teamId,
      test: doc.test ? 1 : 0,
      created_at: doc.createdAt.toISOString(),
    }));
    for (const [key, count] of liveReservations(rows)) {
      const [teamId, period] = key.split('\n') as [string, string];
      await this.deps.usage?.settle?.(trx, teamId, period, count);
    }
  }

  /** A live queued document that ends uncounted gives back the reservation it took when it was queued. */
  private async releaseIfPending(trx: Db, row: DocumentRow | null): Promise<void> {
    if (!row || row.test === 1 || !(OPEN_STATUSES as readonly string[]).includes(row.status)) return;
    await this.deps.usage?.releaseIn(trx, row.team_id, usagePeriodOf(row.created_at));
  }

  private async emit(
    trx: Db,
    row: DocumentRow,
    type: 'pdf.created' | 'pdf.failed',
    extra: { report?: RenderReport; errorMessage?: string } = {},
  ): Promise<void> {
    await recordPdfEvent(trx, this.deps.clock, {
      type,
      teamId: row.team_id,
      test: row.test === 1,
      document: this.deps.present(row),
      filename: row.filename,
      metadata: row.metadata_json ? (JSON.parse(row.metadata_json) as Record<string, unknown>) : null,
      batchId: row.batch_id,
      warnings: extra.report?.warnings ?? [],
      blockedResources: extra.report?.blockedResources ?? [],
      eInvoice: row.e_invoice_json ? (JSON.parse(row.e_invoice_json) as object) : null,
      ...(extra.errorMessage === undefined ? {} : { errorMessage: extra.errorMessage }),
    });
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** Live (counted) rows by "team\nperiod" (the period each reserved in), with how many each holds. */
function liveReservations(
  rows: readonly { team_id: string; test: number; created_at: string }[],
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    if (row.test === 1) continue;
    const key = `${row.team_id}\n${usagePeriodOf(row.created_at)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function baseRow(doc: NewDocument, status: DocumentRow['status']): DocumentRow {
  const at = doc.createdAt.toISOString();
  return {
    id: doc.id,
    team_id: doc.teamId,
    status,
    mode: doc.mode,
    test: doc.test ? 1 : 0,
    template_id: doc.templateId,
    template_version: doc.templateVersion,
    error_code: null,
    error_message: null,
    accessibility_json: null,
    pages: null,
    bytes: null,
    filename: doc.filename,
    content_type: doc.contentType,
    metadata_json: doc.metadata ? JSON.stringify(doc.metadata) : null,
    e_invoice_json: doc.eInvoice ? JSON.stringify(doc.eInvoice) : null,
    delivery_json: doc.delivery ? JSON.stringify(doc.delivery) : null,
    batch_id: doc.batchId,
    blob_key: null,
    stored_bytes: 0,
    counted: 0,
    signed: 0,
    expires_at: null,
    thumbnail_key: null,
    created_at: at,
    updated_at: at,
  };
}

/** Pages, warnings and timing of a finished render (or the error code of a failed one), for its activity entry. */
function outcomeDetails(outcome: DocumentOutcome): ActivityDetails {
  if (outcome.status === 'failed')
    return {
      error_code: outcome.code,
      ...(outcome.message === undefined ? {} : { error_message: outcome.message }),
    };
  return {
    pages: outcome.file.pages,
    warnings: outcome.report.warnings,
    ...(outcome.report.timings ? { timings_ms: outcome.report.timings } : {}),
  };
}

/** The columns an outcome sets, on the new row or the queued one. */
function outcomeColumns(outcome: DocumentOutcome): Partial<DocumentRow> {
  const delivery = outcome.delivery ? { delivery_json: JSON.stringify(outcome.delivery) } : {};
  if (outcome.status === 'failed')
    return {
      error_code: outcome.code,
      error_message: outcome.message ?? null,
      pages: null,
      bytes: null,
      ...delivery,
    };
  return {
    ...fileColumns(outcome.file),
    error_code: null,
    error_message: null,
    e_invoice_json: outcome.eInvoice ? JSON.stringify(outcome.eInvoice) : null,
    ...delivery,
  };
}

function fileColumns(file: ProducedFile) {
  return {
    ...pick(file, ['pages', 'bytes', 'mode']),
    template_version: file.templateVersion,
    blob_key: file.blobKey,
    stored_bytes: file.blobKey ? file.bytes : 0,
    expires_at: file.blobKey && file.expiresAt ? file.expiresAt.toISOString() : null,
    counted: file.usagePeriod ? 1 : 0,
    signed: file.signed ? 1 : 0,
    accessibility_json: file.accessibility ? JSON.stringify(file.accessibility) : null,
    ...(file.filename === undefined ? {} : { filename: file.filename }),
  };
}
