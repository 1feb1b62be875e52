import type { Kysely, Migration } from 'kysely';

/** Job queue, webhook endpoints, the event outbox and the delivery log (spec: Webhook endpoint, delivery). */
export const migration0004JobsWebhooks: Migration = {
  async up(db: Kysely<unknown>) {
    await createJobs(db);
    await createEndpoints(db);
    await createEventsAndDeliveries(db);
  },
};

async function createJobs(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text')
    .addColumn('test', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('payload_json', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();
  await db.schema.createIndex('jobs_team_open').on('jobs').columns(['team_id', 'status']).execute();
  await db.schema
    .createIndex('jobs_team_created')
    .on('jobs')
    .columns(['team_id', 'test', 'created_at'])
    .execute();
}

async function createEndpoints(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('events_json', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('secret_prefix', 'text', (c) => c.notNull())
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_until', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_team')
    .on('webhook_endpoints')
    .columns(['team_id', 'mode', 'created_at'])
    .execute();
}

async function createEventsAndDeliveries(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('envelope_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('last_error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('test_event', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('single_attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_attempt_at', 'text')
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_created')
    .on('webhook_deliveries')
    .column('created_at')
    .execute();
}
