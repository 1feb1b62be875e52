import type { Kysely, Migration } from 'kysely';
import { int64Type } from '../dialect.js';

/**
 * Request budgets shared by every process on one PostgreSQL (storage/rate-windows.ts). SQLite installs get
 * the table too, unused: one process keeps its budgets in memory.
 */
export const migration0010RateWindows: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_windows')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('start_ms', int64Type(db), (c) => c.notNull())
      .addColumn('window_ms', 'integer', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .execute();
  },
};
