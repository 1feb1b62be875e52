import type { Kysely, Migration } from 'kysely';
import { int64Type } from '../dialect.js';

/**
 * The document log: one row per render that started (spec: Document, Retention facts). Byte counts are
 * 64-bit on PostgreSQL too (int64Type; SQLite unchanged).
 */
export const migration0002Documents: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('documents')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('mode', 'text')
      .addColumn('test', 'integer', (c) => c.notNull())
      .addColumn('template_id', 'text')
      .addColumn('template_version', 'integer')
      .addColumn('error_code', 'text')
      .addColumn('pages', 'integer')
      .addColumn('bytes', int64Type(db))
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('metadata_json', 'text')
      .addColumn('e_invoice_json', 'text')
      .addColumn('delivery_json', 'text')
      .addColumn('batch_id', 'text')
      .addColumn('blob_key', 'text')
      .addColumn('stored_bytes', int64Type(db), (c) => c.notNull().defaultTo(0))
      .addColumn('counted', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', 'text')
      .addColumn('thumbnail_key', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('documents_team_created')
      .on('documents')
      .columns(['team_id', 'created_at', 'id'])
      .execute();
    await db.schema.createIndex('documents_expires').on('documents').column('expires_at').execute();
  },
};
