import type { Kysely, Migration } from 'kysely';
import { int64Type } from '../dialect.js';

/**
 * Brand assets (a team's logo and fonts, bytes in the blob store) and the document activity log (status
 * transitions with timing, pages and warnings; kept 30 days, spec: Retention facts).
 */
export const migration0012BrandAssets: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('brand_assets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('ext', 'text', (c) => c.notNull())
      .addColumn('bytes', int64Type(db), (c) => c.notNull())
      .addColumn('family', 'text')
      .addColumn('blob_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('brand_assets_team')
      .on('brand_assets')
      .columns(['team_id', 'kind'])
      .execute();
    await db.schema
      .createTable('document_activity')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('document_id', 'text', (c) => c.notNull())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('step', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('details_json', 'text')
      .execute();
    await db.schema
      .createIndex('document_activity_document')
      .on('document_activity')
      .columns(['document_id', 'at'])
      .execute();
    await db.schema.createIndex('document_activity_at').on('document_activity').column('at').execute();
  },
};
