import type { Clock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import type { Db } from '../storage/index.js';
import { enqueueDeliveryJob } from './delivery-job.js';
import { movableFrom, TRANSITIONS } from './delivery-states.js';
import type { EndpointRow } from './endpoints.js';
import { buildEnvelope, type EventEnvelope, type EventType, sampleDocumentData } from './events.js';

/**
 * The outbox (spec: Events). Call `recordEvent` inside the transaction that makes the state change the
 * event announces: the event, one pending delivery per receiving endpoint and each delivery's job on the
 * shared queue commit or vanish with it, so no event is lost or invented by a crash. Endpoints are chosen now: a disabled endpoint never gets the
 * event later (spec: Webhook endpoint status).
 */
export interface RecordedEvent {
  envelope: EventEnvelope;
  /** Deliveries queued (0: no enabled endpoint of this mode subscribes; nothing was stored). */
  deliveries: number;
}

export async function recordEvent(
  trx: Db,
  clock: Clock,
  input: { teamId: string; livemode: boolean; type: EventType; data: Record<string, unknown> },
): Promise<RecordedEvent> {
  const now = clock.now();
  const envelope = buildEnvelope({
    type: input.type,
    createdAt: now,
    livemode: input.livemode,
    data: input.data,
  });
  // A live endpoint receives live documents' events, a test endpoint test documents' (spec: Events).
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('team_id', '=', input.teamId)
    .where('mode', '=', input.livemode ? 'live' : 'test')
    .where('status', '=', 'enabled')
    .execute();
  const receiving = endpoints.filter((e) => (JSON.parse(e.events_json) as string[]).includes(input.type));
  if (receiving.length === 0) return { envelope, deliveries: 0 };
  await insertEvent(trx, input.teamId, envelope);
  for (const endpoint of receiving) {
    await insertDelivery(trx, clock, endpoint, envelope, { now, testEvent: false });
  }
  return { envelope, deliveries: receiving.length };
}

/** The test-event operation: one delivery, sent once, never retried, never disabling (spec: Delivery 7). */
export async function queueTestEvent(db: Db, clock: Clock, endpoint: EndpointRow): Promise<string> {
  const now = clock.now();
  const livemode = endpoint.mode === 'live';
  const envelope = buildEnvelope({
    type: 'pdf.created',
    createdAt: now,
    livemode,
    data: sampleDocumentData(now, livemode),
    testEvent: true,
  });
  return db.transaction().execute(async (trx) => {
    await insertEvent(trx, endpoint.team_id, envelope);
    return insertDelivery(trx, clock, endpoint, envelope, { now, testEvent: true });
  });
}

/**
 * Manual retry: one more attempt of a finished delivery, same id, no new schedule (spec: Webhook delivery
 * status). False when the delivery is pending or absent. The guarded update makes two racing retries queue
 * one attempt.
 */
export async function queueManualRetry(db: Db, clock: Clock, deliveryId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const reopened = await trx
      .updateTable('webhook_deliveries')
      .set({
        status: TRANSITIONS.retry.to,
        single_attempt: 1,
        next_attempt_at: clock.now().toISOString(),
      })
      .where('id', '=', deliveryId)
      .where('status', 'in', movableFrom('retry'))
      .returning(['id', 'endpoint_id'])
      .executeTakeFirst();
    if (!reopened) return false;
    await enqueueDeliveryJob(trx, clock, reopened, { singleAttempt: true });
    return true;
  });
}

async function insertEvent(trx: Db, teamId: string, envelope: EventEnvelope): Promise<void> {
  await trx
    .insertInto('webhook_events')
    .values({
      id: envelope.id,
      team_id: teamId,
      type: envelope.type,
      envelope_json: JSON.stringify(envelope),
      created_at: envelope.created_at,
    })
    .execute();
}

async function insertDelivery(
  trx: Db,
  clock: Clock,
  endpoint: EndpointRow,
  envelope: EventEnvelope,
  options: { now: Date; testEvent: boolean },
): Promise<string> {
  const id = newId();
  await trx
    .insertInto('webhook_deliveries')
    .values({
      id,
      endpoint_id: endpoint.id,
      team_id: endpoint.team_id,
      event_id: envelope.id,
      event_type: envelope.type,
      status: TRANSITIONS.create.to,
      response_status: null,
      response_body: null,
      last_error: null,
      duration_ms: null,
      test_event: options.testEvent ? 1 : 0,
      single_attempt: options.testEvent ? 1 : 0,
      created_at: options.now.toISOString(),
      last_attempt_at: null,
      next_attempt_at: options.now.toISOString(),
      job_id: null,
    })
    .execute();
  await enqueueDeliveryJob(
    trx,
    clock,
    { id, endpoint_id: endpoint.id },
    { singleAttempt: options.testEvent },
  );
  return id;
}
