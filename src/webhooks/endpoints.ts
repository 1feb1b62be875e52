import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { countRows, type Db, lockKey, ofTeam } from '../storage/index.js';
import type { EventType } from './events.js';
import type { SecretBox } from './secret-box.js';
import { generateWebhookSecret, secretPrefix } from './signing.js';
import type { WebhookEndpointsTable } from './tables.js';

/** Endpoint storage: one team and key mode at a time (spec: mode separation, `webhook_not_found`). */
export type EndpointRow = WebhookEndpointsTable;
export type KeyMode = 'live' | 'test';

export const MAX_ENDPOINTS_PER_TEAM = 10;
/** A rotated-out secret still signs deliveries for this long (spec: Delivery 2). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export async function countEndpoints(db: Db, teamId: string): Promise<number> {
  return countRows(ofTeam(db.selectFrom('webhook_endpoints'), teamId));
}

export async function listEndpoints(db: Db, teamId: string, mode: KeyMode): Promise<EndpointRow[]> {
  return ofTeam(db.selectFrom('webhook_endpoints').selectAll(), teamId)
    .where('mode', '=', mode)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findEndpoint(
  db: Db,
  teamId: string,
  mode: KeyMode,
  id: string,
): Promise<EndpointRow | null> {
  return (
    (await ofTeam(db.selectFrom('webhook_endpoints').selectAll(), teamId, id)
      .where('mode', '=', mode)
      .executeTakeFirst()) ?? null
  );
}

/** Both ways of creating an endpoint take and answer the same, so a caller may use either. */
type InsertEndpoint = (
  db: Db,
  clock: Clock,
  box: SecretBox,
  input: { teamId: string; mode: KeyMode; url: string; events: EventType[]; description: string | null },
) => Promise<{ row: EndpointRow; secret: string }>;

/** Creates an enabled endpoint; the returned secret is the only clear copy (stored sealed). */
export const insertEndpoint: InsertEndpoint = async (db, clock, box, input) => {
  const now = clock.now().toISOString();
  const secret = generateWebhookSecret();
  const row: EndpointRow = {
    id: newId(),
    team_id: input.teamId,
    mode: input.mode,
    url: input.url,
    description: input.description,
    events_json: JSON.stringify(input.events),
    status: 'enabled',
    disabled_reason: null,
    secret_sealed: box.seal(secret),
    secret_prefix: secretPrefix(secret),
    previous_secret_sealed: null,
    previous_secret_until: null,
    failing_since: null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('webhook_endpoints').values(row).execute();
  return { row, secret };
};

/**
 * Creates an endpoint unless the team already has 10 (both modes count). Insert first, then count in the
 * same transaction: on SQLite the insert holds the write lock; on PostgreSQL the team's key lock makes
 * concurrent creates count one after the other. Either way they cannot pass the limit.
 */
export const insertEndpointWithinLimit: InsertEndpoint = (db, clock, box, input) =>
  db.transaction().execute(async (trx) => {
    const made = await insertEndpoint(trx, clock, box, input);
    await lockKey(trx, `webhook_endpoints:${input.teamId}`);
    if ((await countEndpoints(trx, input.teamId)) > MAX_ENDPOINTS_PER_TEAM) {
      throw new AppError(
        'invalid_request',
        `A workspace can have at most ${MAX_ENDPOINTS_PER_TEAM} webhook endpoints.`,
      );
    }
    return made;
  });

export async function findEndpointById(db: Db, id: string): Promise<EndpointRow | null> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

export async function updateEndpointRow(
  db: Db,
  id: string,
  changes: Partial<Omit<EndpointRow, 'id' | 'team_id' | 'mode' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
}

/** New secret; the old one keeps signing (second `v1=`) for 24 hours. */
export async function rotateSecret(
  db: Db,
  clock: Clock,
  box: SecretBox,
  row: EndpointRow,
): Promise<{ row: EndpointRow; secret: string }> {
  const now = clock.now();
  const secret = generateWebhookSecret();
  const changes = {
    secret_sealed: box.seal(secret),
    secret_prefix: secretPrefix(secret),
    previous_secret_sealed: row.secret_sealed,
    previous_secret_until: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
    updated_at: now.toISOString(),
  };
  await updateEndpointRow(db, row.id, changes);
  return { row: { ...row, ...changes }, secret };
}

/** Deletes the endpoint with its delivery log; events no other delivery refers to go too. */
export async function deleteEndpoint(db: Db, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
    await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
    await deleteOrphanEvents(trx);
  });
}

export async function deleteOrphanEvents(db: Db): Promise<void> {
  await db
    .deleteFrom('webhook_events')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries')
            .select('webhook_deliveries.id')
            .whereRef('webhook_deliveries.event_id', '=', 'webhook_events.id'),
        ),
      ),
    )
    .execute();
}

/** The secrets that sign a delivery now: current first, plus the previous one within 24 h of a rotation. */
export function signingSecrets(row: EndpointRow, box: SecretBox, now: Date): string[] {
  const secrets = [box.open(row.secret_sealed)];
  if (
    row.previous_secret_sealed &&
    row.previous_secret_until &&
    Date.parse(row.previous_secret_until) > now.getTime()
  ) {
    secrets.push(box.open(row.previous_secret_sealed));
  }
  return secrets;
}

export function endpointEvents(row: EndpointRow): EventType[] {
  return JSON.parse(row.events_json) as EventType[];
}
