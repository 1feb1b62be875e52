import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import { type Db, openDatabase } from '../../src/storage/db.js';

/**
 * The database switch of the tests. Unset QUIRE_TEST_DATABASE_URL: SQLite in the test's data directory. Set
 * (e.g. postgres://127.0.0.1:5432/test): each test server or test database gets a fresh PostgreSQL database
 * of its own, created from that one on start and dropped on close, so tests stay independent in parallel.
 */
export const TEST_DATABASE_URL = process.env.QUIRE_TEST_DATABASE_URL || null;

function adminClient(url: string): pg.Client {
  const u = new URL(url);
  if (u.username === '') u.username = process.env.PGUSER ?? process.env.USER ?? userInfo().username;
  return new pg.Client({ connectionString: u.toString() });
}

async function admin(url: string, statement: string): Promise<void> {
  const client = adminClient(url);
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh empty PostgreSQL database's URL (null on SQLite), and how to drop it. */
export async function createTestDatabase(): Promise<{ url: string | null; drop(): Promise<void> }> {
  const base = TEST_DATABASE_URL;
  if (!base) return { url: null, drop: async () => {} };
  return createPostgresDatabase(base);
}

/** A fresh empty database on the server of `base` (a database that exists there, e.g. `test`). */
export async function createPostgresDatabase(base: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `quire_t_${randomBytes(6).toString('hex')}`;
  // template0 takes no connections, so parallel creates never find their template "being accessed".
  await admin(base, `create database ${name} template template0`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE: a pool a failed test left open must not keep the database alive.
    drop: () => admin(base, `drop database if exists ${name} with (force)`),
  };
}

const byDataDir = new Map<string, string>();

/**
 * `openDatabase` for tests: SQLite in `dataDir`, or the PostgreSQL database of this data directory (created
 * at its first open; opening the same directory again reaches the same database). The first opener's
 * `destroy()` drops it.
 */
export async function openTestDatabase(dataDir: string): Promise<Db> {
  const known = byDataDir.get(dataDir);
  if (known || !TEST_DATABASE_URL) return openDatabase(dataDir, known ?? null);
  const created = await createTestDatabase();
  byDataDir.set(dataDir, created.url as string);
  const db = await openDatabase(dataDir, created.url);
  const destroy = db.destroy.bind(db);
  db.destroy = async () => {
    await destroy();
    byDataDir.delete(dataDir);
    await created.drop();
  };
  return db;
}

/**
 * For the describe block it is called in: a fresh data directory (named after `dirPrefix`) and a test
 * database in it (openTestDatabase), both removed after the block. `use` receives them once they exist, in
 * a `before` hook where the call stands: ahead of the block's later hooks, which may use them.
 */
export function databaseForBlock(
  dirPrefix: string,
  use: (both: { dataDir: string; db: Db }) => unknown,
): void {
  let dataDir: string | undefined;
  let db: Db | undefined;
  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), dirPrefix));
    db = await openTestDatabase(dataDir);
    use({ dataDir, db });
  });
  after(async () => {
    await db?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
}

/** The URL a test's data directory uses (for a child process), null on SQLite. */
export function testDatabaseUrlOf(dataDir: string): string | null {
  return byDataDir.get(dataDir) ?? null;
}
