import type { Generated } from 'kysely';
import type { DeliveryStatus } from './delivery-states.js';

export interface WebhookEndpointsTable {
  id: string;
  team_id: string;
  mode: 'live' | 'test';
  url: string;
  description: string | null;
  /** JSON array of subscribed event types. */
  events_json: string;
  status: 'enabled' | 'disabled';
  disabled_reason: 'manual' | 'failing' | null;
  /** AES-256-GCM sealed signing secret (never stored in clear). */
  secret_sealed: string;
  secret_prefix: string;
  /** The secret before the last rotation, still signed with until `previous_secret_until`. */
  previous_secret_sealed: string | null;
  previous_secret_until: string | null;
  /** First failed attempt since the last success; null while healthy. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

/** The outbox: one row per event that had at least one receiving endpoint; the body exactly as sent. */
export interface WebhookEventsTable {
  id: string;
  team_id: string;
  type: string;
  envelope_json: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  team_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: Generated<number>;
  response_status: number | null;
  response_body: string | null;
  /** Extension (migration 0019): the last attempt's request headers, a JSON object; null if none was sent. */
  request_headers_json: string | null;
  /** Extension: the last answer's headers, a JSON object (capped, see deliver-http.ts). */
  response_headers_json: string | null;
  /** Extension: the first 4 KB of the last answer's body as text (the spec's response_body keeps 1,024 characters). */
  response_body_preview: string | null;
  last_error: string | null;
  duration_ms: number | null;
  test_event: number;
  /** 1 while a test event or manual retry waits for its one attempt: no schedule, never disables. */
  single_attempt: number;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  /** The `webhook_delivery` job that makes the waiting or next attempts (null only for old finished rows). */
  job_id: string | null;
}

export interface WebhooksTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
