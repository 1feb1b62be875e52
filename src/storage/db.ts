import { userInfo } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  type SelectQueryBuilder,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import type pg from 'pg';
import { onPostgres } from './dialect.js';
import { migrateToLatest } from './migrations/index.js';
import { ensurePrivateDirSync, ensurePrivateFileSync } from './private-files.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/**
 * The dialect seam: SQLite (better-sqlite3) in the data directory by default, PostgreSQL (a `pg` pool) when
 * QUIRE_DATABASE_URL is set. Dialect-specific SQL (locks, LISTEN/NOTIFY, pragmas) is written only here.
 */
function sqliteDialect(file: string): SqliteDialect {
  return new ImmediateSqliteDialect({
    database: () => {
      const db = new SqliteDatabase(file);
      // The busy timeout first: on a fresh file another process may hold the lock while it switches to WAL.
      db.pragma('busy_timeout = 5000');
      // WAL lets the CLI and worker processes read and write while the server runs.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      return Promise.resolve(withStatementCache(db));
    },
  });
}

/**
 * Every transaction begins IMMEDIATE (takes the write lock at once, waiting out the busy timeout). Kysely's
 * default `begin` is deferred: a transaction that reads and then writes has to upgrade its read snapshot, and
 * when another process (the CLI, a worker) committed in between, SQLite answers SQLITE_BUSY_SNAPSHOT at once
 * without waiting — renders failed with 500 while an operator ran `quire key create`. This process has only
 * one connection, whose transactions already run one at a time, so nothing is lost by taking the lock early.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/** Distinct SQL texts kept prepared; past it the cache starts over (a `where in` list of every length). */
const STATEMENT_CACHE_MAX = 500;

/**
 * Kysely prepares every query anew; compiling the SQL was about 3 ms of main-thread CPU per rendered
 * document in the issue-17 profile. Statements are reused by their SQL text. Safe because Kysely runs
 * one query at a time on its single SQLite connection (a streamed query holds it until it ends), so a
 * cached statement is never in use twice at once.
 */
function withStatementCache(db: SqliteDatabase.Database) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => db.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_MAX) statements.clear();
        statement = db.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/**
 * `count(*)` is int8 and `sum()` numeric on PostgreSQL, which `pg` returns as strings; SQLite returns numbers
 * and the repositories compare counts as numbers. Parsed per pool, not through pg's global type registry.
 */
function pgTypes(driver: PgModule) {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === PG_INT8 || oid === PG_NUMERIC) return (value: string) => Number(value);
      return driver.types.getTypeParser(oid, format);
    },
  };
}

type PgModule = typeof pg;
let pgModule: Promise<PgModule> | undefined;

/** `pg` loads only when a PostgreSQL URL is configured: an embedded install's start-up does not pay for it. */
function loadPg(): Promise<PgModule> {
  pgModule ??= import('pg').then((m) => m.default);
  return pgModule;
}

/** The URL of each PostgreSQL database opened here, for the dedicated LISTEN connection. */
const postgresUrls = new WeakMap<object, string>();

/** Like psql, a URL without a user name connects as PGUSER or the OS user (pg itself reads only $USER). */
function withDefaultUser(url: string): string {
  const u = new URL(url);
  if (u.username !== '') return url;
  u.username = encodeURIComponent(process.env.PGUSER ?? process.env.USER ?? userInfo().username);
  return u.toString();
}

function postgresPool(driver: PgModule, url: string): pg.Pool {
  const pool = new driver.Pool({
    connectionString: withDefaultUser(url),
    max: 10,
    types: pgTypes(driver) as pg.CustomTypesConfig,
  });
  // An idle client whose connection dies (server restart, failover) is dropped by the pool; the next query
  // opens a new one. Unhandled, the pool's 'error' event would end the process.
  pool.on('error', () => {});
  return pool;
}

/**
 * Opens the database and applies pending migrations: PostgreSQL at `databaseUrl` when given, else (creating
 * if needed) SQLite under the data directory. The data directory and the SQLite file are created owner-only
 * (SQLite gives its -wal and -shm files the same mode).
 */
export async function openDatabase(dataDir: string, databaseUrl: string | null = null): Promise<Db> {
  if (databaseUrl) return openPostgres(databaseUrl);
  ensurePrivateDirSync(dataDir);
  const file = path.join(dataDir, 'quire.sqlite');
  ensurePrivateFileSync(file);
  return migrated(new Kysely<Database>({ dialect: sqliteDialect(file) }), migrateExclusively);
}

async function openPostgres(url: string): Promise<Db> {
  const pool = postgresPool(await loadPg(), url);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  postgresUrls.set(db, url);
  // Kysely's migrator on PostgreSQL runs every pending migration in one transaction that first takes
  // pg_advisory_lock on its own key: processes started together wait, then find nothing left to apply.
  return migrated(db, migrateToLatest);
}

/** The database once `migrate` ran on it; a failed migration closes it before the error goes on. */
async function migrated(db: Db, migrate: (db: Db) => Promise<void>): Promise<Db> {
  try {
    await migrate(db);
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

/** True on PostgreSQL (also for a transaction of a PostgreSQL database). */
export function isPostgres(db: Db): boolean {
  return onPostgres(db);
}

/**
 * Serializes transactions that check and then write on one logical key (a team's job budget, a template's
 * versions): on PostgreSQL a transaction-scoped advisory lock, released at commit or rollback. SQLite needs
 * none: its writers are serialized, and this process's transactions run one at a time on one connection.
 */
export async function lockKey(trx: Db, key: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

/**
 * Runs `work` while holding a lock on `key` across transactions (a check, then several writes that commit on
 * their own): on PostgreSQL a session advisory lock on one pooled connection, which `work` gets to use, so
 * processes started together run it one after the other. SQLite: `work` runs as is (one serving process).
 */
export async function withKeyLock<T>(db: Db, key: string, work: (conn: Db) => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return work(db);
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtextextended(${key}, 0))`.execute(conn);
    try {
      return await work(conn);
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(conn);
    }
  });
}

/**
 * For a claim's inner select: on PostgreSQL, lock the chosen row and skip rows other claimers hold, so
 * concurrent claims pick different rows instead of waiting on (and then missing) the same one.
 */
export function skipLocked<DB, TB extends keyof DB, O>(
  db: Db,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return isPostgres(db) ? query.forUpdate().skipLocked() : query;
}

/** Wakes listeners on `channel` in every process once the current transaction commits (PostgreSQL only). */
export async function notify(db: Db, channel: string): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`select pg_notify(${channel}, '')`.execute(db);
}

/**
 * Calls `onNotify` whenever another process (or this one) notifies `channel`, over one dedicated connection
 * (a pooled one would be handed back and lose the LISTEN). Null on SQLite, where callers keep polling alone.
 * The connection's errors go to `onError`; polling still finds the work, so they are not fatal.
 */
export async function listen(
  db: Db,
  channel: string,
  onNotify: () => void,
  onError: (err: unknown) => void,
): Promise<(() => Promise<void>) | null> {
  const url = postgresUrls.get(db);
  if (!url) return null;
  const driver = await loadPg();
  const client = new driver.Client({ connectionString: withDefaultUser(url) });
  client.on('error', onError);
  client.on('notification', onNotify);
  await client.connect();
  await client.query(`listen ${client.escapeIdentifier(channel)}`);
  return async () => {
    await client.end().catch(onError);
  };
}
