/** UTC calendar days as `YYYY-MM-DD` text: stored times are ISO strings in UTC, so a day bound compares as text. */

const DAY_MS = 86_400_000;

/** The UTC day after `day` (the text bound of a day's end: compare stored ISO times below it). */
export function dayAfter(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** Every UTC day from `from` to `to`, both inclusive (empty when `to` comes first). */
export function daysFrom(from: string, to: string): string[] {
  // Counted, not compared as text: the day after 9999-12-31 is "+010000-01-01", which sorts first.
  const start = Date.parse(`${from}T00:00:00Z`);
  const count = Math.max(0, daysBetween(from, to) + 1);
  return Array.from({ length: count }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

/** Whole days from `from` to `to` (0 for the same day; negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** True when `day` names a real calendar day (`2026-02-29` and `0000-00-00` do not; JavaScript would roll them). */
export function isCalendarDay(day: string): boolean {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day;
}
