import { type Kysely, type Migration, sql } from 'kysely';
import { newId } from '../../shared/ids.js';

/**
 * One durable queue for all background work: jobs get a kind, a per-job attempt limit, a deduplication key
 * and a concurrency key; webhook deliveries stop having their own lease and become `webhook_delivery` jobs
 * (the `webhook_deliveries` table stays the delivery log the API shows).
 *
 * The literal values below (kind name, concurrency key form, the cap of 2) are what the code used when this
 * migration was written; a migration never follows later code changes.
 */
export const migration0005Queue: Migration = {
  async up(db: Kysely<unknown>) {
    await extendJobs(db);
    await db.schema.alterTable('webhook_deliveries').addColumn('job_id', 'text').execute();
    await moveWaitingDeliveriesToJobs(db);
    await db.schema.alterTable('webhook_deliveries').dropColumn('lease_owner').execute();
    await db.schema.alterTable('webhook_deliveries').dropColumn('lease_until').execute();
  },
};

async function extendJobs(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').renameColumn('type', 'kind').execute();
  await db.schema.alterTable('jobs').addColumn('max_attempts', 'integer').execute();
  await db.schema.alterTable('jobs').addColumn('job_key', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('concurrency_key', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('concurrency_limit', 'integer').execute();
  // Partial: only keyed jobs take part, so unkeyed jobs never conflict (same on PostgreSQL).
  await db.schema
    .createIndex('jobs_kind_key')
    .unique()
    .on('jobs')
    .columns(['kind', 'job_key'])
    .where(sql.ref('job_key'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('jobs_concurrency')
    .on('jobs')
    .columns(['concurrency_key', 'status'])
    .where(sql.ref('concurrency_key'), 'is not', null)
    .execute();
}

interface WaitingDelivery {
  id: string;
  endpoint_id: string;
  attempts: number;
  single_attempt: number;
  next_attempt_at: string | null;
  created_at: string;
}

/** Pending deliveries of the old dispatcher become queued jobs, keeping their place in the retry schedule. */
async function moveWaitingDeliveriesToJobs(db: Kysely<unknown>): Promise<void> {
  const waiting = await sql<WaitingDelivery>`
    select id, endpoint_id, attempts, single_attempt, next_attempt_at, created_at
    from webhook_deliveries where status = 'pending'`.execute(db);
  const now = new Date().toISOString();
  for (const d of waiting.rows) {
    const jobId = newId();
    const single = d.single_attempt === 1;
    await sql`
      insert into jobs (id, kind, team_id, test, payload_json, status, attempts, max_attempts,
        concurrency_key, concurrency_limit, run_at, created_at, updated_at)
      values (${jobId}, 'webhook_delivery', null, 0, ${JSON.stringify({ deliveryId: d.id })}, 'queued',
        ${single ? 0 : d.attempts}, ${single ? 1 : null}, ${`webhook_endpoint:${d.endpoint_id}`}, 2,
        ${d.next_attempt_at ?? d.created_at}, ${now}, ${now})`.execute(db);
    await sql`update webhook_deliveries set job_id = ${jobId} where id = ${d.id}`.execute(db);
  }
}
