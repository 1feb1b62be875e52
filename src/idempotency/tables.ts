/**
 * Idempotency keys (spec: POST /pdf Idempotency; Limits: 24 hours). One row per team, key mode, route and
 * key. `running` rows hold a lease, so a request whose process died leaves its key retryable.
 */
export interface IdempotencyKeysTable {
  team_id: string;
  mode: 'live' | 'test';
  /** The route the key was used on, e.g. `POST /pdf`. */
  route: string;
  key: string;
  /** SHA-256 of the canonical JSON of the parsed body: key order and white space do not matter. */
  body_hash: string;
  status: 'running' | 'done';
  lease_until: string | null;
  /** What the first request answered: the document it made and how it was answered. */
  document_id: string | null;
  answer: 'binary' | 'url' | 'async' | null;
  created_at: string;
  expires_at: string;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}
