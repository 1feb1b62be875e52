import { type DeleteQueryBuilder, type DeleteResult, type SelectQueryBuilder, sql } from 'kysely';
import type { PageCursor } from '../shared/page-cursor.js';
import type { Db } from './db.js';
import type { Database } from './schema.js';

/**
 * Query shapes the capabilities share. They name columns through `sql.ref` (quoted alike on SQLite and
 * PostgreSQL) because Kysely cannot check a column against a table that is still a type parameter; the table
 * constraints below keep the callers to tables that have those columns.
 */

/** The tables whose rows belong to one team and are named by an `id`. */
type TeamTable = {
  [T in keyof Database]: Database[T] extends { id: unknown; team_id: unknown } ? T : never;
}[keyof Database];

/**
 * The rows of `query` that belong to the team, or the one named `id`: another team's rows are never in the
 * scope, so a request cannot reach them by guessing an id.
 */
export function ofTeam<TB extends TeamTable, O>(
  query: SelectQueryBuilder<Database, TB, O>,
  teamId: string,
  id?: string,
): SelectQueryBuilder<Database, TB, O> {
  const rows = query.where(sql.ref('team_id'), '=', teamId);
  return id === undefined ? rows : rows.where(sql.ref('id'), '=', id);
}

/** The tables of what API keys make: a test key makes (and sees) only rows with `test` 1. */
type KeyModeTable = {
  [T in keyof Database]: Database[T] extends { test: unknown } ? T : never;
}[TeamTable];

/** What a request's key may see of `query`: its team's rows (or the one named `id`); a test key, test rows only. */
export function inKeyScope<TB extends KeyModeTable, O>(
  query: SelectQueryBuilder<Database, TB, O>,
  scope: { teamId: string; testOnly: boolean; id?: string },
): SelectQueryBuilder<Database, TB, O> {
  const rows = ofTeam(query, scope.teamId, scope.id);
  return scope.testOnly ? rows.where(sql.ref('test'), '=', 1) : rows;
}

/** The finder of one row by id within a key's scope (see inKeyScope); null when the key may not see it. */
export function keyScopedFinder<TB extends KeyModeTable, O>(
  rows: (db: Db) => SelectQueryBuilder<Database, TB, O>,
): (db: Db, teamId: string, id: string, testOnly: boolean) => Promise<O | null> {
  return async (db, teamId, id, testOnly) =>
    (await inKeyScope(rows(db), { teamId, testOnly, id }).executeTakeFirst()) ?? null;
}

/** One column of the rows `query` selects, as a list of its values. */
export async function valuesOf<DB, TB extends keyof DB, K extends string, V>(
  query: SelectQueryBuilder<DB, TB, Record<K, V>>,
  column: K,
): Promise<V[]> {
  return (await query.execute()).map((row) => row[column]);
}

/** How many rows `query` selects. */
export async function countRows<TB extends keyof Database, O>(
  query: SelectQueryBuilder<Database, TB, O>,
): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A page of a newest-first list after `before`: the (created_at, id) order stays stable while rows are
 * inserted meanwhile. `alias` qualifies the columns when the query joins other tables.
 */
export function newestFirstPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  before: PageCursor | null,
  limit: number,
  alias?: TB & string,
): SelectQueryBuilder<DB, TB, O> {
  const column = (name: string) => sql.ref<string>(alias ? `${alias}.${name}` : name);
  const [createdAt, id] = [column('created_at'), column('id')];
  const after = before
    ? query.where((eb) =>
        eb.or([
          eb(createdAt, '<', before.createdAt),
          eb.and([eb(createdAt, '=', before.createdAt), eb(id, '<', before.id)]),
        ]),
      )
    : query;
  return after.orderBy(createdAt, 'desc').orderBy(id, 'desc').limit(limit);
}

/**
 * Retention: deletes the rows `query` selects whose `column` (an ISO time) lies more than `ageMs` before
 * `now`; answers how many went.
 */
export async function deleteOlderThan<TB extends keyof Database>(
  query: DeleteQueryBuilder<Database, TB, DeleteResult>,
  column: keyof Database[TB] & string,
  ageMs: number,
  now: Date,
): Promise<number> {
  const cutoff = new Date(now.getTime() - ageMs).toISOString();
  const result = await query.where(sql.ref(column), '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
