import { type Kysely, PostgresAdapter } from 'kysely';

/** True on PostgreSQL (also for a transaction of a PostgreSQL database). Part of the dialect seam. */
// biome-ignore lint/suspicious/noExplicitAny: any database shape (migrations see Kysely<unknown>)
export function onPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The column type of a byte count: SQLite's `integer` is 64-bit, PostgreSQL's only 32-bit, so a count that
 * may pass 2 GiB (a team's stored bytes are summed from it, tests fill a quota with one huge value) is
 * `bigint` there. SQLite installs keep `integer`, exactly as before.
 */
export function int64Type(db: Kysely<unknown>): 'integer' | 'bigint' {
  return onPostgres(db) ? 'bigint' : 'integer';
}
