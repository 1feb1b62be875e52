import type { Plan } from '../accounts/plans.js';
import type { AppServices } from '../app.js';
import { presentDocument } from '../documents/present.js';
import { type DocumentRow, insertDocument } from '../documents/repository.js';
import type { RenderResult } from '../render/types.js';
import type { Db } from '../storage/db.js';
import { recordPdfEvent } from '../webhooks/pdf-events.js';
import { type EInvoicePlan, eInvoiceSummary } from './einvoice.js';
import type { PreparedHtml } from './prepare.js';
import { sanitizeFilename } from './request-rules.js';
import type { PdfRequest } from './schema.js';
import { expiryFor } from './storage-policy.js';

type Base = Omit<
  DocumentRow,
  'status' | 'error_code' | 'pages' | 'bytes' | 'expires_at' | 'blob_key' | 'stored_bytes' | 'counted'
>;

export interface RowContext {
  id: string;
  teamId: string;
  createdAt: Date;
  test: boolean;
  prepared: PreparedHtml;
  body: PdfRequest;
  einv?: EInvoicePlan | null;
}

export function baseRow(ctx: RowContext): Base {
  const at = ctx.createdAt.toISOString();
  return {
    id: ctx.id,
    team_id: ctx.teamId,
    mode: ctx.prepared.page.mode,
    test: ctx.test ? 1 : 0,
    template_id: ctx.prepared.template?.id ?? null,
    template_version: ctx.prepared.template?.version ?? null,
    filename: sanitizeFilename(ctx.prepared.filename, '.pdf'),
    content_type: 'application/pdf',
    metadata_json: ctx.body.metadata ? JSON.stringify(ctx.body.metadata) : null,
    e_invoice_json: ctx.einv ? JSON.stringify(eInvoiceSummary(ctx.einv)) : null,
    delivery_json: null,
    batch_id: null,
    thumbnail_key: null,
    created_at: at,
    updated_at: at,
  };
}

/** The columns a successful render fills in; live documents are counted here, once. */
export function successColumns(
  result: RenderResult,
  stored: { blobKey: string | null; createdAt: Date; plan: Plan; test: boolean },
): Pick<
  DocumentRow,
  'status' | 'error_code' | 'pages' | 'bytes' | 'expires_at' | 'blob_key' | 'stored_bytes' | 'counted'
> {
  return {
    status: 'succeeded',
    error_code: null,
    pages: result.pages,
    bytes: result.pdf.length,
    expires_at: stored.blobKey ? expiryFor(stored.createdAt, stored.plan, stored.test).toISOString() : null,
    blob_key: stored.blobKey,
    stored_bytes: stored.blobKey ? result.pdf.length : 0,
    counted: stored.test ? 0 : 1,
  };
}

/** Inserts the final document and its pdf.created / pdf.failed event in one transaction (outbox). */
export async function insertWithEvent(
  services: AppServices,
  row: DocumentRow,
  metadata: Record<string, unknown> | null,
): Promise<void> {
  await services.db.transaction().execute(async (trx) => {
    await insertDocument(trx as Db, row);
    await recordPdfEvent(trx as Db, services.clock, {
      type: row.status === 'succeeded' ? 'pdf.created' : 'pdf.failed',
      teamId: row.team_id,
      test: row.test === 1,
      document: {
        ...presentDocument(row, {
          signer: services.signer,
          publicUrl: services.publicUrl(),
          nowMs: services.clock.now().getTime(),
        }),
      },
      filename: row.filename,
      metadata,
      batchId: row.batch_id,
    });
  });
}
