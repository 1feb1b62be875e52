import type { Clock } from '../shared/clock.js';
import { type Db, deleteOlderThan, newestFirstPage } from '../storage/index.js';
import { deleteOrphanEvents } from './endpoints.js';
import type { DeliveryWithEvent } from './present.js';

/** The delivery log of one endpoint (spec: deliveries log, newest first, 30 days). */
export interface LogCursor {
  createdAt: string;
  id: string;
}

function withEvent(db: Db) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .selectAll('d')
    .select('ev.envelope_json');
}

export async function listDeliveries(
  db: Db,
  endpointId: string,
  options: { limit: number; before: LogCursor | null },
): Promise<DeliveryWithEvent[]> {
  const query = withEvent(db).where('d.endpoint_id', '=', endpointId);
  return newestFirstPage(query, options.before, options.limit, 'd').execute();
}

export async function findDelivery(
  db: Db,
  endpointId: string,
  id: string,
): Promise<DeliveryWithEvent | null> {
  const row = await withEvent(db)
    .where('d.endpoint_id', '=', endpointId)
    .where('d.id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

export function encodeLogCursor(row: { created_at: string; id: string }): string {
  return Buffer.from(`${row.created_at}|${row.id}`).toString('base64url');
}

export function decodeLogCursor(value: string): LogCursor | null {
  const text = Buffer.from(value, 'base64url').toString('utf8');
  const match = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)\|([0-9a-f-]{36})$/.exec(text);
  return match?.[1] && match[2] ? { createdAt: match[1], id: match[2] } : null;
}

export const DELIVERY_LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Retention sweep: finished delivery log entries older than 30 days, and events nothing refers to any more. */
export async function sweepDeliveryLog(db: Db, clock: Clock): Promise<number> {
  const finished = db.deleteFrom('webhook_deliveries').where('status', '!=', 'pending');
  const deleted = await deleteOlderThan(finished, 'created_at', DELIVERY_LOG_RETENTION_MS, clock.now());
  await deleteOrphanEvents(db);
  return deleted;
}
