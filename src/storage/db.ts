import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { migrateToLatest } from './migrations/index.js';
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
      // WAL lets the CLI and worker processes read and write while the server runs.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      db.pragma('foreign_keys = ON');
      return Promise.resolve(db);
    },
  });
}

/** Opens (creating if needed) the database under the data directory and applies pending migrations. */
export async function openDatabase(dataDir: string): Promise<Db> {
  mkdirSync(dataDir, { recursive: true });
  const db = new Kysely<Database>({ dialect: sqliteDialect(path.join(dataDir, 'quire.sqlite')) });
  await migrateToLatest(db);
  return db;
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
