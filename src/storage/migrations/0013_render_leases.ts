import type { Kysely, Migration } from 'kysely';
import { int64Type } from '../dialect.js';

/**
 * Render slots shared by every process on one PostgreSQL (storage/render-leases.ts). SQLite installs get the
 * table too, unused: one process keeps its slots in memory.
 */
export const migration0013RenderLeases: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('render_leases')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('expires_at', int64Type(db), (c) => c.notNull())
      .execute();
    await db.schema.createIndex('render_leases_team').on('render_leases').columns(['team_id']).execute();
    await db.schema.createIndex('render_leases_holder').on('render_leases').columns(['holder']).execute();
  },
};
