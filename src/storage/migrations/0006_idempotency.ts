import type { Kysely, Migration } from 'kysely';

/** Idempotency keys (spec: POST /pdf Idempotency; 24 hours). */
export const migration0006Idempotency: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('route', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('body_hash', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('lease_until', 'text')
      .addColumn('document_id', 'text')
      .addColumn('answer', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['team_id', 'mode', 'route', 'key'])
      .execute();
    await db.schema
      .createIndex('idempotency_keys_expires')
      .on('idempotency_keys')
      .column('expires_at')
      .execute();
  },
};
