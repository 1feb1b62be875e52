import { type Kysely, type Migration, sql } from 'kysely';
import { int64Type, onPostgres } from '../dialect.js';

/**
 * Render slots shared by every process on one PostgreSQL (storage/render-leases.ts). SQLite installs get the
 * table too, unused: one process keeps its slots in memory.
 *
 * UNLOGGED on PostgreSQL: a lease lives seconds, and every render takes and gives one back, so their commits
 * should not wait for a WAL flush (measured: a flush-bound acquire + release took about 19 ms on a busy disk,
 * a round trip 0.05 ms). After a PostgreSQL crash the table comes back empty: the renders then in flight are
 * no longer counted until they end, a brief overshoot of the plan's slots, never a stuck slot.
 */
export const migration0013RenderLeases: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('render_leases')
      .$call((table) => (onPostgres(db) ? table.modifyFront(sql`unlogged`) : table))
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('expires_at', int64Type(db), (c) => c.notNull())
      .execute();
    await db.schema.createIndex('render_leases_team').on('render_leases').columns(['team_id']).execute();
    await db.schema.createIndex('render_leases_holder').on('render_leases').columns(['holder']).execute();
  },
};
