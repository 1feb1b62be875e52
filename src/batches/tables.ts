/** The batches capability's tables (migration 0008). */
export interface BatchesTable {
  id: string;
  team_id: string;
  test: number;
  template_id: string;
  /** The version sent with the batch; null = each item follows the pinned, else current version. */
  template_version: number | null;
  total: number;
  metadata_json: string | null;
  /** When POST /batches/<id>/cancel was called; the batch is `canceled` from then on. */
  canceled_at: string | null;
  /** When the ZIP was built and batch.completed recorded (exactly once). */
  completed_at: string | null;
  zip_key: string | null;
  zip_expires_at: string | null;
  created_at: string;
}

export interface BatchItemsTable {
  batch_id: string;
  item_index: number;
  document_id: string;
}

export interface BatchesTables {
  batches: BatchesTable;
  batch_items: BatchItemsTable;
}
