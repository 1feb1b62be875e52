/**
 * Rows per multi-row INSERT. SQLite binds at most 32,766 values per statement and PostgreSQL 65,535; the
 * widest table written in bulk (documents, 24 columns) binds 12,000 values per statement at 500 rows, and
 * longer statements gain nothing measurable.
 */
export const ROWS_PER_INSERT = 500;

/** `rows` in consecutive slices of at most `size` rows: one multi-row INSERT each. */
export function chunks<T>(rows: readonly T[], size = ROWS_PER_INSERT): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}
