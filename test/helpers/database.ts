import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import { type Db, openDatabase } from '../../src/storage/db.js';
import { PRIVATE_FILE_MODE } from '../../src/storage/private-files.js';

/**
 * The database switch of the tests. Unset QUIRE_TEST_DATABASE_URL: SQLite in the test's data directory. Set
 * (e.g. postgres://127.0.0.1:5432/test): each test server or test database gets a fresh PostgreSQL database
 * of its own, created on that server on start and dropped on close, so tests stay independent in parallel.
 * Either way a test server's database starts as a copy of a migrated template (made once per set of
 * migrations), so servers do not each run the migrations; tests of migrations and of empty databases make
 * their own (createTestDatabase, a named dataDir or databaseUrl).
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

/**
 * A fresh empty PostgreSQL database's URL (null on SQLite), and how to drop it: for tests of what processes do
 * on an empty database (migrating it together, the first run). Test servers start on a migrated copy instead
 * (createMigratedTestDatabase).
 */
export async function createTestDatabase(): Promise<{ url: string | null; drop(): Promise<void> }> {
  const base = TEST_DATABASE_URL;
  if (!base) return { url: null, drop: async () => {} };
  return createPostgresDatabase(base);
}

/**
 * A fresh PostgreSQL database with every migration applied (null on SQLite: seedMigratedSqlite does the same
 * there), and how to drop it: a copy of the migrated template (migratedTemplate), so a test server does not
 * run the migrations again. Its own opening still runs the migrator, which finds nothing to apply.
 */
export async function createMigratedTestDatabase(): Promise<{ url: string | null; drop(): Promise<void> }> {
  const base = TEST_DATABASE_URL;
  if (!base) return { url: null, drop: async () => {} };
  return createPostgresDatabase(base, await migratedTemplate(base));
}

/**
 * A fresh database on the server of `base` (a database that exists there, e.g. `test`): empty (template0), or a
 * copy of `template`.
 */
export async function createPostgresDatabase(
  base: string,
  template = 'template0',
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `quire_t_${randomBytes(6).toString('hex')}`;
  // template0 takes no connections, and nothing connects to a migrated template once it is published, so
  // parallel creates never find their template "being accessed".
  await admin(base, `create database ${name} template ${template}`);
  return {
    url: databaseUrl(base, name),
    // FORCE: a pool a failed test left open must not keep the database alive.
    drop: () => admin(base, `drop database if exists ${name} with (force)`),
  };
}

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

const require = createRequire(import.meta.url);
const STORAGE = path.resolve(import.meta.dirname, '../../src/storage');

/**
 * What the migrated templates are made from: the migrations' sources, the dialect helpers they call, the database
 * opener and Kysely's version. A change to any of them names a new template, so a copy never has an old schema.
 * The .ts sources are read in the compiled mirror too (scripts/compile-tests.mjs keeps them beside the .js).
 */
function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  const migrations = path.join(STORAGE, 'migrations');
  const files = readdirSync(migrations)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => path.join(migrations, f));
  for (const file of [...files, path.join(STORAGE, 'dialect.ts'), path.join(STORAGE, 'db.ts')]) {
    hash
      .update(`${path.basename(file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  }
  hash.update(kyselyVersion());
  return hash.digest('hex').slice(0, 16);
}

/** Kysely's version, from its package.json (which its exports do not name). */
function kyselyVersion(): string {
  const entry = require.resolve('kysely');
  const packageDir = entry.slice(0, entry.lastIndexOf(`${path.sep}kysely${path.sep}`) + '/kysely'.length);
  return JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;
}

let fingerprint: string | undefined;
const templateFingerprint = () => (fingerprint ??= migrationsFingerprint());

/** The migrated template databases of this fingerprint on each PostgreSQL server, once known to exist. */
const pgTemplates = new Map<string, Promise<string>>();

/** An arbitrary fixed key: the processes of a run (and of runs side by side) build a template one at a time. */
const TEMPLATE_LOCK = 4_711_047;

/**
 * The name of the migrated template on the server of `base` (quire_tpl_<fingerprint>), made by the first test
 * process that needs it, under an advisory lock; the others wait for it, then copy it. It is built under a
 * name of its own and renamed when complete, with no connection left open: a template with connections cannot
 * be copied, and a half-built one is never seen. Templates stay between runs (one per set of migrations).
 */
function migratedTemplate(base: string): Promise<string> {
  let known = pgTemplates.get(base);
  if (!known) {
    known = buildPostgresTemplate(base);
    pgTemplates.set(base, known);
    known.catch(() => pgTemplates.delete(base));
  }
  return known;
}

async function buildPostgresTemplate(base: string): Promise<string> {
  const name = `quire_tpl_${templateFingerprint()}`;
  const client = adminClient(base);
  await client.connect();
  try {
    const exists = async () =>
      (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    await client.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      if (await exists()) return name;
      const building = `${name}_build`;
      // A build a killed process left half done.
      await client.query(`drop database if exists ${building} with (force)`);
      await client.query(`create database ${building} template template0`);
      const db = await openDatabase(tmpdir(), databaseUrl(base, building));
      await db.destroy();
      await client.query(`alter database ${building} rename to ${name}`);
      return name;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  } finally {
    await client.end();
  }
}

/** The migrated SQLite template's path in this process (migratedSqliteTemplate), once made or found. */
let sqliteTemplate: Promise<string> | undefined;

/**
 * A migrated SQLite database file in the temporary directory (quire-test-template-<fingerprint>.sqlite): made by
 * the first process that needs it and renamed into place complete, so a process never copies half a file (two
 * that make it at once write the same schema, and the last rename wins). Kept between runs.
 */
function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const file = path.join(tmpdir(), `quire-test-template-${templateFingerprint()}.sqlite`);
    if (existsSync(file)) return file;
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-test-template-'));
    try {
      await (await openDatabase(dir)).destroy();
      // Closing the last connection checkpoints the WAL into the file and removes it: the file is whole.
      renameSync(path.join(dir, 'quire.sqlite'), file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return file;
  })();
  sqliteTemplate.catch(() => {
    sqliteTemplate = undefined;
  });
  return sqliteTemplate;
}

/**
 * Puts a migrated SQLite database (a copy of the template) into a new data directory before anything opens it,
 * owner-only as Quire makes its own: the app then opens it and finds every migration applied. A directory
 * that has a database already keeps it.
 */
export async function seedMigratedSqlite(dataDir: string): Promise<void> {
  const file = path.join(dataDir, 'quire.sqlite');
  // A directory Quire is to create (a test of its modes) is left to Quire.
  if (!existsSync(dataDir) || existsSync(file)) return;
  copyFileSync(await migratedSqliteTemplate(), file);
  chmodSync(file, PRIVATE_FILE_MODE);
}

const byDataDir = new Map<string, string>();

/**
 * `openDatabase` for tests: SQLite in `dataDir`, or the PostgreSQL database of this data directory (created
 * at its first open; opening the same directory again reaches the same database). The first opener's
 * `destroy()` drops it.
 */
export async function openTestDatabase(dataDir: string): Promise<Db> {
  const known = byDataDir.get(dataDir);
  if (known) return openDatabase(dataDir, known);
  if (!TEST_DATABASE_URL) {
    await seedMigratedSqlite(dataDir);
    return openDatabase(dataDir);
  }
  const created = await createMigratedTestDatabase();
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
