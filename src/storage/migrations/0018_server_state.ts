import type { Kysely, Migration } from 'kysely';

/**
 * Facts a serving process records for the CLI and other processes on the same database (storage/server-state.ts),
 * e.g. the public URL it serves under, so `quire user create` links to the server, not to the CLI's defaults.
 */
export const migration0018ServerState: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('server_state')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};
