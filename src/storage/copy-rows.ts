import type { Kysely } from 'kysely';
import type { Db } from './db.js';

/**
 * The tables in an order where each comes after the tables its foreign keys reference (the order the
 * migrations create them). A table added later that is not listed here is copied after these, in name order:
 * a later table can only reference earlier ones, and a wrong guess fails the copy loudly, never silently.
 */
const TABLE_ORDER = [
  'teams',
  'api_keys',
  'documents',
  'templates',
  'template_versions',
  'jobs',
  'webhook_endpoints',
  'webhook_events',
  'webhook_deliveries',
  'idempotency_keys',
  'email_deliveries',
  'email_suppressions',
  'batches',
  'batch_items',
];

/**
 * Tables that triggers keep from other tables' rows (the running total of stored bytes, migration 0021):
 * never copied — the copied documents fill them on the target — and checked by their total instead.
 */
const DERIVED_TABLES: Readonly<Record<string, string>> = { team_stored_bytes: 'bytes' };

/** Bound values per INSERT: under SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
const MAX_PARAMETERS = 30_000;

// Tables are named at run time here, so the copy works on rows as plain records.
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

export interface TableCount {
  table: string;
  rows: number;
}

/** Copying into a database that already holds rows would mix two installs: refused before anything is written. */
export class TargetNotEmpty extends Error {
  override name = 'TargetNotEmpty';
}

/** The application's tables (Kysely's own migration tables left out), parents first. */
async function tablesInCopyOrder(db: Db): Promise<{ name: string; columns: number }[]> {
  const tables = await db.introspection.getTables();
  const rank = (name: string) => {
    const i = TABLE_ORDER.indexOf(name);
    return i === -1 ? TABLE_ORDER.length : i;
  };
  return tables
    .map((t) => ({ name: t.name, columns: t.columns.length }))
    .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

async function countTableRows(db: Db, table: string): Promise<number> {
  const row = await (db as unknown as AnyDb)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function sumColumn(db: Db, table: string, column: string): Promise<number> {
  const row = await (db as unknown as AnyDb)
    .selectFrom(table)
    .select((eb) => eb.fn.sum<number | string | null>(column).as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n ?? 0);
}

/**
 * Copies every row of every table from `source` to `target` (both migrated to the same schema) in one
 * transaction of the target, so a failed copy leaves the target empty and can simply be run again. The
 * target must be empty. Returns the row count of each table, verified equal on both sides afterwards.
 */
export async function copyRows(source: Db, target: Db): Promise<TableCount[]> {
  const tables = await tablesInCopyOrder(source);
  for (const { name } of tables) {
    const rows = await countTableRows(target, name);
    if (rows > 0) throw new TargetNotEmpty(`The target database is not empty: ${name} has ${rows} row(s).`);
  }
  await target.transaction().execute(async (trx) => {
    for (const { name, columns } of tables) {
      if (name in DERIVED_TABLES) continue;
      const batchSize = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, columns)));
      let batch: Record<string, unknown>[] = [];
      const flush = async () => {
        if (batch.length > 0) await (trx as unknown as AnyDb).insertInto(name).values(batch).execute();
        batch = [];
      };
      for await (const row of (source as unknown as AnyDb).selectFrom(name).selectAll().stream(500)) {
        batch.push(row);
        if (batch.length >= batchSize) await flush();
      }
      await flush();
    }
  });
  const counts: TableCount[] = [];
  for (const { name } of tables) {
    const column = DERIVED_TABLES[name];
    if (column !== undefined) {
      const [from, to] = [await sumColumn(source, name, column), await sumColumn(target, name, column)];
      if (from !== to)
        throw new Error(`Totals differ after the copy: ${name}.${column} sums to ${from} here, ${to} there.`);
      continue;
    }
    const [from, to] = [await countTableRows(source, name), await countTableRows(target, name)];
    if (from !== to)
      throw new Error(`Row counts differ after the copy: ${name} has ${from} here, ${to} there.`);
    counts.push({ table: name, rows: to });
  }
  return counts;
}
