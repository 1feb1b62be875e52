import type { Kysely, Migration } from 'kysely';

/** deliver.email: the email log (daily limits count it) and the per-team suppression list. */
export const migration0007Email: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('email_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('document_id', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('reply_to', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('counted', 'integer', (c) => c.notNull())
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('email_deliveries_team_created')
      .on('email_deliveries')
      .columns(['team_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('email_suppressions')
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('email_suppressions_pk', ['team_id', 'address'])
      .execute();
  },
};
