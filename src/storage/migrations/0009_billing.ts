import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Usage and billing: each team's billing state, its plan history (for proration), the usage
 * ledger (one row per counted live document, never deleted by retention) and the per-period reservation
 * counters that make the plan check race-free. Portable SQL only: ISO text times, 0/1 integers.
 */
export const migration0009Billing: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('teams')
      .addColumn('subscription', 'text', (c) => c.notNull().defaultTo('none'))
      .execute();
    await db.schema.alterTable('teams').addColumn('spending_cap_cents', 'integer').execute();
    await db.schema.alterTable('teams').addColumn('overage_billed_period', 'text').execute();
    // Paid teams that existed before billing state did are treated as subscribed.
    await sql`update teams set subscription = 'active' where plan <> 'free'`.execute(db);

    await db.schema
      .createTable('team_plan_changes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('plan', 'text', (c) => c.notNull())
      .addColumn('changed_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('team_plan_changes_team')
      .on('team_plan_changes')
      .columns(['team_id', 'changed_at'])
      .execute();
    // Each existing team's current plan, from its creation: the history a proration starts from.
    await sql`insert into team_plan_changes (id, team_id, plan, changed_at)
      select id, id, plan, created_at from teams`.execute(db);

    await db.schema
      .createTable('usage_records')
      .addColumn('document_id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('usage_records_team_period')
      .on('usage_records')
      .columns(['team_id', 'period'])
      .execute();
    // Counted documents so far move into the ledger (period = the month of their creation, 'YYYY-MM').
    await sql`insert into usage_records (document_id, team_id, period, created_at)
      select id, team_id, substr(created_at, 1, 7), created_at from documents where counted = 1`.execute(db);

    await db.schema
      .createTable('usage_counters')
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('reserved', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_counters_pk', ['team_id', 'period'])
      .execute();
  },
};
