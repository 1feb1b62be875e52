import { type Static, Type } from 'typebox';
import { DateTime, Nullable, named } from '../http/schemas.js';
import { type EndpointRow, endpointEvents } from './endpoints.js';
import type { WebhookDeliveriesTable } from './tables.js';

/** Response shapes (spec: Webhook endpoint; Webhook delivery). */
export const EventTypeSchema = named(
  'EventType',
  Type.Union([Type.Literal('pdf.created'), Type.Literal('pdf.failed'), Type.Literal('batch.completed')]),
);

export const EndpointSchema = named(
  'WebhookEndpoint',
  Type.Object({
    id: Type.String(),
    url: Type.String(),
    description: Nullable(Type.String()),
    events: Type.Array(EventTypeSchema),
    mode: Type.Union([Type.Literal('live'), Type.Literal('test')]),
    status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
    disabled_reason: Nullable(Type.Union([Type.Literal('manual'), Type.Literal('failing')])),
    secret_prefix: Type.String(),
    created_at: DateTime,
    updated_at: DateTime,
    secret: Type.Optional(Type.String({ description: 'Only on create and rotate-secret' })),
  }),
);

const Headers = Type.Record(Type.String(), Type.String());

/** Extension: the last attempt's exchange, so a developer can debug a receiver from the log. */
const AttemptDetailSchema = named(
  'WebhookAttemptDetail',
  Type.Object(
    {
      request: Type.Object({
        headers: Headers,
        body: Type.String({
          description: 'The body exactly as sent (its bytes are what the signature covers)',
        }),
      }),
      response: Nullable(
        Type.Object({
          status: Type.Integer(),
          headers: Headers,
          body: Type.String({ description: 'The first 4 KB of the answer, as text' }),
        }),
      ),
    },
    {
      description:
        'Extension: what the last attempt sent (headers, body; never the secret) and received (status, headers, the first 4 KB of the body); `response` is null when no answer came. Absent or null before the first attempt.',
    },
  ),
);

export const DeliverySchema = named(
  'WebhookDelivery',
  Type.Object({
    id: Type.String(),
    event_id: Type.String(),
    event_type: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
    attempts: Type.Integer(),
    response_status: Nullable(Type.Integer()),
    response_body: Nullable(Type.String()),
    last_error: Nullable(Type.String()),
    duration_ms: Nullable(Type.Integer()),
    test_event: Type.Boolean(),
    created_at: DateTime,
    last_attempt_at: Nullable(DateTime),
    next_attempt_at: Nullable(DateTime),
    event: Type.Record(Type.String(), Type.Unknown()),
    last_attempt_detail: Type.Optional(Nullable(AttemptDetailSchema)),
  }),
);

export type EndpointJson = Static<typeof EndpointSchema>;
export type DeliveryJson = Static<typeof DeliverySchema>;

export function presentEndpoint(row: EndpointRow, secret?: string): EndpointJson {
  const json: EndpointJson = {
    id: row.id,
    url: row.url,
    description: row.description,
    events: endpointEvents(row),
    mode: row.mode,
    status: row.status,
    disabled_reason: row.status === 'disabled' ? row.disabled_reason : null,
    secret_prefix: row.secret_prefix,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  if (secret !== undefined) json.secret = secret;
  return json;
}

export type DeliveryWithEvent = Omit<WebhookDeliveriesTable, 'attempts'> & {
  attempts: number;
  envelope_json: string;
};

export function presentDelivery(row: DeliveryWithEvent): DeliveryJson {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    response_status: row.response_status,
    response_body: row.response_body,
    last_error: row.last_error,
    duration_ms: row.duration_ms,
    test_event: row.test_event === 1,
    created_at: row.created_at,
    last_attempt_at: row.last_attempt_at,
    // A delivery being sent right now, or finished, has no next attempt to show.
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    event: JSON.parse(row.envelope_json) as Record<string, unknown>,
    last_attempt_detail: attemptDetail(row),
  };
}

function attemptDetail(row: DeliveryWithEvent): DeliveryJson['last_attempt_detail'] {
  if (!row.request_headers_json) return null;
  return {
    request: {
      headers: JSON.parse(row.request_headers_json) as Record<string, string>,
      body: row.envelope_json,
    },
    response:
      row.response_status === null
        ? null
        : {
            status: row.response_status,
            headers: row.response_headers_json
              ? (JSON.parse(row.response_headers_json) as Record<string, string>)
              : {},
            body: row.response_body_preview ?? row.response_body ?? '',
          },
  };
}
