import type { Kysely, Migration } from 'kysely';
import { int64Type } from '../dialect.js';

/**
 * Reservations a process holds before they are durable (accounts/usage-ledger.ts): one row per process,
 * team and period, so a process that dies mid-render leaves rows that say what to give back.
 */
export const migration0014UsageHolds: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('usage_holds')
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('expires_at', int64Type(db), (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_holds_pk', ['holder', 'team_id', 'period'])
      .execute();
    await db.schema.createIndex('usage_holds_expires').on('usage_holds').columns(['expires_at']).execute();
  },
};
