import type { DocumentJson, DocumentRow, LinkSigner } from '../documents/index.js';
import { ERROR_CODES, isErrorCode } from '../shared/errors.js';
import type { BatchRow, ItemCounts } from './repository.js';

/** Batch statuses (spec: not shown; ours, see docs/api-behaviours.md "Batches and spreadsheets"). */
export type BatchStatus = 'queued' | 'processing' | 'completed' | 'canceled';

export interface BatchJson {
  id: string;
  status: BatchStatus;
  template_id: string;
  template_version: number | null;
  test: boolean;
  counts: ItemCounts & { total: number };
  metadata: Record<string, unknown> | null;
  created_at: string;
  completed_at: string | null;
  zip: { url: string; expires_at: string } | null;
}

export interface LinkContext {
  signer: LinkSigner;
  publicUrl: string;
  nowMs: number;
}

/** The signed-link resource of a batch's ZIP (spec: GET /batches/<id>/zip). */
export function zipResource(batchId: string): string {
  return `batch-zip:${batchId}`;
}

/**
 * queued: no item has started; processing: work is under way (or the ZIP is being built); completed: every
 * item is done and the ZIP is ready; canceled: cancel was asked (items already rendering still finish).
 */
export function batchStatus(row: BatchRow, counts: ItemCounts): BatchStatus {
  if (row.canceled_at !== null) return 'canceled';
  if (row.completed_at !== null) return 'completed';
  return counts.queued === row.total ? 'queued' : 'processing';
}

export function presentBatch(row: BatchRow, counts: ItemCounts, links: LinkContext): BatchJson {
  const zipLive =
    row.zip_key !== null && row.zip_expires_at !== null && Date.parse(row.zip_expires_at) > links.nowMs;
  return {
    id: row.id,
    status: batchStatus(row, counts),
    template_id: row.template_id,
    template_version: row.template_version,
    test: row.test === 1,
    counts: { total: row.total, ...counts },
    metadata: row.metadata_json ? (JSON.parse(row.metadata_json) as Record<string, unknown>) : null,
    created_at: row.created_at,
    completed_at: row.completed_at,
    zip:
      zipLive && row.zip_expires_at
        ? {
            url: `${links.publicUrl}/v1/batches/${row.id}/zip${links.signer.query(zipResource(row.id), new Date(row.zip_expires_at))}`,
            expires_at: row.zip_expires_at,
          }
        : null,
  };
}

/** Spec: Batch item — the item's Document plus `index`, `filename`, `error_message`, `document_url`. */
export function presentItem(index: number, row: DocumentRow, document: DocumentJson) {
  const code = row.error_code;
  // The item's own words when its render said why (e.g. the Liquid filter that failed); else the code's meaning.
  const meaning = code === null ? null : isErrorCode(code) ? ERROR_CODES[code].meaning : code;
  return {
    ...document,
    index,
    filename: row.filename,
    error_message: code === null ? null : (row.error_message ?? meaning),
    document_url: document.url,
  };
}
