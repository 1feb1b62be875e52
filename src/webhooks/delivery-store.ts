import { cancelJob } from '../jobs/index.js';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import type { AttemptResult } from './deliver-http.js';
import { type DeliveryTransition, movableFrom, TRANSITIONS } from './delivery-states.js';
import { shouldDisable } from './schedule.js';
import type { WebhookDeliveriesTable } from './tables.js';

/**
 * Delivery results: the state machine of spec "Webhook delivery status". Each function runs inside the
 * transaction that also moves the delivery's job on, so the log and the queue never disagree.
 */
export type DeliveryRow = Omit<WebhookDeliveriesTable, 'attempts'> & { attempts: number };

export interface RecordOutcome {
  /** True when this failure disabled the endpoint (its owners are to be notified). */
  disabled: boolean;
}

/**
 * Stores one attempt's result: succeeded, pending until `retryAt` (the worker's decision from the
 * schedule), or failed; then applies the 24-hour rule (spec: Delivery 4–5, 7).
 */
export async function recordAttempt(
  trx: Db,
  clock: Clock,
  delivery: DeliveryRow,
  result: AttemptResult,
  retryAt: Date | null,
): Promise<RecordOutcome> {
  const now = clock.now();
  const move: DeliveryTransition = result.ok ? 'succeed' : retryAt ? 'reschedule' : 'fail';
  await trx
    .updateTable('webhook_deliveries')
    .set({
      attempts: delivery.attempts + 1,
      status: TRANSITIONS[move].to,
      response_status: result.status,
      response_body: result.body,
      request_headers_json: result.requestHeaders ? JSON.stringify(result.requestHeaders) : null,
      response_headers_json: result.responseHeaders ? JSON.stringify(result.responseHeaders) : null,
      response_body_preview: result.bodyPreview,
      last_error: result.error,
      duration_ms: result.durationMs,
      last_attempt_at: now.toISOString(),
      next_attempt_at: result.ok ? null : (retryAt?.toISOString() ?? null),
      single_attempt: 0,
    })
    .where('id', '=', delivery.id)
    // Never refuses today: while pending, a delivery's one writer is the job holding the lease.
    .where('status', 'in', movableFrom(move))
    .execute();
  // A test event never changes the endpoint's health (spec: Delivery 7).
  if (delivery.test_event === 1) return { disabled: false };
  return updateEndpointHealth(trx, delivery, {
    ok: result.ok,
    scheduled: delivery.single_attempt === 0,
    pending: retryAt !== null,
    now,
  });
}

async function updateEndpointHealth(
  trx: Db,
  delivery: DeliveryRow,
  input: { ok: boolean; scheduled: boolean; pending: boolean; now: Date },
): Promise<RecordOutcome> {
  const endpoint = await trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'status', 'failing_since'])
    .where('id', '=', delivery.endpoint_id)
    .executeTakeFirst();
  if (!endpoint) return { disabled: false };
  if (input.ok) {
    if (endpoint.failing_since) await setFailingSince(trx, endpoint.id, null);
    return { disabled: false };
  }
  if (endpoint.status !== 'enabled') {
    // Disabled while this attempt was in flight: dropped like the other waiting ones (its job, if requeued,
    // finds the delivery finished and ends without sending).
    if (input.pending) await dropDelivery(trx, delivery.id, 'not sent: endpoint disabled');
    return { disabled: false };
  }
  // A manual retry's failure is the user's probe, not part of the schedule: it never disables.
  if (!input.scheduled) return { disabled: false };
  const since = endpoint.failing_since ? new Date(endpoint.failing_since) : input.now;
  if (!endpoint.failing_since) await setFailingSince(trx, endpoint.id, input.now.toISOString());
  if (!shouldDisable(since, input.now)) return { disabled: false };
  await disableEndpoint(trx, { now: () => input.now }, endpoint.id, 'failing');
  return { disabled: true };
}

/** A waiting delivery that will not be sent (its endpoint was disabled): failed, no next attempt. */
export async function dropDelivery(trx: Db, id: string, reason: string): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: TRANSITIONS.drop.to, next_attempt_at: null, single_attempt: 0, last_error: reason })
    .where('id', '=', id)
    .where('status', 'in', movableFrom('drop'))
    .execute();
}

async function setFailingSince(trx: Db, id: string, failingSince: string | null): Promise<void> {
  await trx
    .updateTable('webhook_endpoints')
    .set({ failing_since: failingSince })
    .where('id', '=', id)
    .execute();
}

/**
 * Disables an endpoint and drops its waiting deliveries with their queued jobs: events of the disabled time
 * are never sent. Test events keep theirs (spec: disabled endpoints still get test events); an attempt in
 * flight finishes and is dropped when it fails.
 */
export async function disableEndpoint(
  trx: Db,
  clock: Clock,
  endpointId: string,
  reason: 'manual' | 'failing',
): Promise<void> {
  const nowIso = clock.now().toISOString();
  await trx
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: reason, failing_since: null, updated_at: nowIso })
    .where('id', '=', endpointId)
    .execute();
  const waiting = await trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('jobs as j', 'j.id', 'd.job_id')
    .select(['d.id', 'd.job_id'])
    .where('d.endpoint_id', '=', endpointId)
    .where('d.status', '=', 'pending')
    .where('d.test_event', '=', 0)
    .where('j.status', '=', 'queued')
    .execute();
  for (const delivery of waiting) {
    if (delivery.job_id) await cancelJob(trx, clock, delivery.job_id);
    await dropDelivery(trx, delivery.id, `not sent: endpoint disabled (${reason})`);
  }
}
