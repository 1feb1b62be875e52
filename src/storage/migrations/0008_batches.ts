import type { Kysely, Migration } from 'kysely';

/**
 * Batches (spec: Batches): the batch row, and its items in order (`index` → the item's document; the
 * documents table, the one lifecycle's, keeps each item's status).
 */
export const migration0008Batches: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('batches')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('test', 'integer', (c) => c.notNull())
      .addColumn('template_id', 'text', (c) => c.notNull())
      .addColumn('template_version', 'integer')
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('metadata_json', 'text')
      .addColumn('canceled_at', 'text')
      .addColumn('completed_at', 'text')
      .addColumn('zip_key', 'text')
      .addColumn('zip_expires_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('batches_team_created')
      .on('batches')
      .columns(['team_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createTable('batch_items')
      .addColumn('batch_id', 'text', (c) => c.notNull())
      .addColumn('item_index', 'integer', (c) => c.notNull())
      .addColumn('document_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('batch_items_pk', ['batch_id', 'item_index'])
      .execute();
    // Counting a batch's items per status, and the completion check after each item.
    await db.schema
      .createIndex('documents_batch_status')
      .on('documents')
      .columns(['batch_id', 'status'])
      .execute();
  },
};
