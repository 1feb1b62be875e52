import { type SelectQueryBuilder, sql } from 'kysely';
import { dayAfter } from '../shared/utc-days.js';
import type { Database } from './schema.js';

/**
 * The rows of `query` counted per UTC day of their `created_at`, from `fromDay` to `toDay` (inclusive), in
 * SQL: the day is the ISO text's first ten characters, the same on SQLite and PostgreSQL. Days without rows
 * are absent.
 */
export async function countPerCreatedDay<TB extends keyof Database, O>(
  query: SelectQueryBuilder<Database, TB, O>,
  fromDay: string,
  toDay: string,
): Promise<Map<string, number>> {
  const createdAt = sql.ref<string>('created_at');
  const day = sql<string>`substr(created_at, 1, 10)`;
  const rows = await query
    .select([day.as('day'), (eb) => eb.fn.countAll<number | string>().as('n')])
    .where(createdAt, '>=', fromDay)
    .where(createdAt, '<', dayAfter(toDay))
    .groupBy(day)
    .execute();
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}
