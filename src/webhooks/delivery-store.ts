import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/db.js';
import type { AttemptResult } from './deliver-http.js';
import { nextAttemptAt, shouldDisable } from './schedule.js';
import type { WebhookDeliveriesTable } from './tables.js';

/** Delivery claims and results: the state machine of spec "Webhook delivery status". */
export type DeliveryRow = Omit<WebhookDeliveriesTable, 'attempts'> & { attempts: number };

/** At most 2 deliveries to one endpoint in flight at once (spec: Delivery 6), across all processes. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 2;

/**
 * Leases the most overdue delivery whose endpoint has a free in-flight place. One statement, so two
 * dispatchers never take the same delivery or exceed the per-endpoint cap.
 */
export async function claimDelivery(
  db: Db,
  clock: Clock,
  options: { owner: string; leaseMs: number },
): Promise<DeliveryRow | null> {
  const now = clock.now();
  const nowIso = now.toISOString();
  const next = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select('d.id')
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', nowIso)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<=', nowIso)]))
    // Disabled endpoints get nothing, except the test-event operation's own delivery.
    .where((eb) => eb.or([eb('e.status', '=', 'enabled'), eb('d.test_event', '=', 1)]))
    .where((eb) =>
      eb(
        eb
          .selectFrom('webhook_deliveries as f')
          .select((f) => f.fn.countAll<number>().as('n'))
          .whereRef('f.endpoint_id', '=', 'd.endpoint_id')
          .where('f.status', '=', 'pending')
          .where('f.lease_until', '>', nowIso),
        '<',
        MAX_IN_FLIGHT_PER_ENDPOINT,
      ),
    )
    .orderBy('d.next_attempt_at')
    .orderBy('d.created_at')
    .limit(1);
  const row = await db
    .updateTable('webhook_deliveries')
    .set({ lease_owner: options.owner, lease_until: new Date(now.getTime() + options.leaseMs).toISOString() })
    .where('id', '=', next)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

export interface RecordOutcome {
  /** Set when this failure disabled the endpoint (its owner is to be notified). */
  disabledEndpointId: string | null;
}

/**
 * Stores one attempt's result, schedules the next attempt or finishes the delivery, and applies the
 * 24-hour rule (spec: Delivery 4–5, 7). Only the lease holder may record.
 */
export async function recordAttempt(
  db: Db,
  clock: Clock,
  delivery: DeliveryRow,
  result: AttemptResult,
): Promise<RecordOutcome> {
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const attempts = delivery.attempts + 1;
    const retryAt = result.ok || delivery.single_attempt === 1 ? null : nextAttemptAt(attempts, now);
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set({
        attempts,
        status: result.ok ? 'succeeded' : retryAt ? 'pending' : 'failed',
        response_status: result.status,
        response_body: result.body,
        last_error: result.error,
        duration_ms: result.durationMs,
        last_attempt_at: now.toISOString(),
        next_attempt_at: retryAt?.toISOString() ?? null,
        single_attempt: 0,
        lease_owner: null,
        lease_until: null,
      })
      .where('id', '=', delivery.id)
      .where('lease_owner', '=', delivery.lease_owner)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return { disabledEndpointId: null };
    // A test event never changes the endpoint's health (spec: Delivery 7).
    if (delivery.test_event === 1) return { disabledEndpointId: null };
    return updateEndpointHealth(trx, delivery, {
      ok: result.ok,
      scheduled: delivery.single_attempt === 0,
      pending: retryAt !== null,
      now,
    });
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
  if (!endpoint) return { disabledEndpointId: null };
  const nowIso = input.now.toISOString();
  if (input.ok) {
    if (endpoint.failing_since) await setEndpoint(trx, endpoint.id, { failing_since: null });
    return { disabledEndpointId: null };
  }
  if (endpoint.status !== 'enabled') {
    // Disabled while this attempt was in flight: the delivery is dropped like the other waiting ones.
    if (input.pending) await dropDelivery(trx, delivery.id);
    return { disabledEndpointId: null };
  }
  // A manual retry's failure is the user's probe, not part of the schedule: it never disables.
  if (!input.scheduled) return { disabledEndpointId: null };
  const since = endpoint.failing_since ? new Date(endpoint.failing_since) : input.now;
  if (!endpoint.failing_since) await setEndpoint(trx, endpoint.id, { failing_since: nowIso });
  if (!shouldDisable(since, input.now)) return { disabledEndpointId: null };
  await disableEndpoint(trx, endpoint.id, 'failing', input.now);
  return { disabledEndpointId: endpoint.id };
}

async function dropDelivery(trx: Db, id: string): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, last_error: 'not sent: endpoint disabled' })
    .where('id', '=', id)
    .execute();
}

async function setEndpoint(trx: Db, id: string, changes: { failing_since: string | null }): Promise<void> {
  await trx.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
}

/** Disables an endpoint and drops its waiting deliveries: events of the disabled time are never sent. */
export async function disableEndpoint(
  trx: Db,
  endpointId: string,
  reason: 'manual' | 'failing',
  now: Date,
): Promise<void> {
  const nowIso = now.toISOString();
  await trx
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: reason, failing_since: null, updated_at: nowIso })
    .where('id', '=', endpointId)
    .execute();
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, last_error: `not sent: endpoint disabled (${reason})` })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .where('test_event', '=', 0)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', nowIso)]))
    .execute();
}
