import type { Generated } from 'kysely';

import type { DocumentStatus } from './states.js';

export type { DocumentStatus } from './states.js';

export interface DocumentsTable {
  id: string;
  team_id: string;
  status: DocumentStatus;
  mode: 'fast' | 'print' | null;
  test: number;
  template_id: string | null;
  template_version: number | null;
  error_code: string | null;
  /** Why a background document failed, in words (null otherwise). */
  error_message: string | null;
  /** The accessibility report the request asked for (extension `accessibility_report`), else null. */
  accessibility_json: string | null;
  pages: number | null;
  bytes: number | null;
  /** Sanitised download name including `.pdf` / `.xml`. */
  filename: string;
  content_type: string;
  /** Request metadata; erased after 30 days by the retention sweep. */
  metadata_json: string | null;
  /** `{standard, profile, xml_filename}` for e-invoices. */
  e_invoice_json: string | null;
  delivery_json: string | null;
  batch_id: string | null;
  /** Blob key of the stored file; null when never stored or deleted. */
  blob_key: string | null;
  /** Bytes the stored file occupies (0 once deleted): what the storage quota sums. */
  stored_bytes: Generated<number>;
  /** 1 when this live document was counted in usage (exactly once). */
  counted: Generated<number>;
  /** When the stored file is deleted; null when never stored. */
  expires_at: string | null;
  thumbnail_key: string | null;
  /** 1 when the file carries a PAdES signature (extension `signed` of the Document). */
  signed: Generated<number>;
  created_at: string;
  updated_at: string;
}

/**
 * One status transition of a document (the activity log, spec: Retention facts, 30 days). Written by the
 * lifecycle in the transaction of the change itself; `step` orders entries that share a timestamp.
 */
export interface DocumentActivityTable {
  id: string;
  document_id: string;
  team_id: string;
  status: DocumentStatus;
  step: number;
  at: string;
  /** `{pages, warnings, timings_ms, error_code, error_message}` as far as known at this transition. */
  details_json: string | null;
}

/**
 * Stored bytes per team and mode (`test` 0/1): kept by triggers on `documents` (migration 0019), never written
 * by code; what the storage quota reads.
 */
export interface TeamStoredBytesTable {
  team_id: string;
  test: number;
  bytes: number;
}

export interface DocumentsTables {
  documents: DocumentsTable;
  team_stored_bytes: TeamStoredBytesTable;
  document_activity: DocumentActivityTable;
}
