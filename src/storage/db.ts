import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { migrateToLatest } from './migrations/index.js';
import { ensurePrivateDirSync, ensurePrivateFileSync } from './private-files.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/**
 * The dialect seam: SQLite (better-sqlite3) now. A PostgreSQL dialect can be returned here later;
 * no SQLite-only SQL is written outside this file.
 */
function sqliteDialect(file: string): SqliteDialect {
  return new SqliteDialect({
    database: () => {
      const db = new SqliteDatabase(file);
      // The busy timeout first: on a fresh file another process may hold the lock while it switches to WAL.
      db.pragma('busy_timeout = 5000');
      // WAL lets the CLI and worker processes read and write while the server runs.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      return Promise.resolve(db);
    },
  });
}

/**
 * Opens (creating if needed) the database under the data directory and applies pending migrations. The data
 * directory and the database file are created owner-only (SQLite gives its -wal and -shm files the same mode).
 */
export async function openDatabase(dataDir: string): Promise<Db> {
  ensurePrivateDirSync(dataDir);
  const file = path.join(dataDir, 'quire.sqlite');
  ensurePrivateFileSync(file);
  const db = new Kysely<Database>({ dialect: sqliteDialect(file) });
  try {
    await migrateExclusively(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}

/**
 * Kysely's migrator takes no lock on SQLite (its adapter assumes a single process), so `serve`, `worker` and
 * CLI commands started together on a fresh data directory all ran the first migration and the losers failed
 * with `table "teams" already exists`. The whole run is one exclusive write transaction instead: the other
 * processes wait for it (busy timeout), then find every migration recorded and apply nothing. SQLite DDL is
 * transactional, so a failed migration leaves nothing half-applied.
 */
async function migrateExclusively(db: Db): Promise<void> {
  // One connection for the lock and the migrator (Kysely's SQLite driver has only one anyway).
  await db.connection().execute(async (conn) => {
    await sql`begin exclusive`.execute(conn);
    try {
      await migrateToLatest(conn);
    } catch (err) {
      await sql`rollback`.execute(conn);
      throw err;
    }
    await sql`commit`.execute(conn);
  });
}

/** Readiness probe: one trivial query. */
export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await db.selectFrom('teams').select('id').limit(1).execute();
    return true;
  } catch {
    return false;
  }
}
