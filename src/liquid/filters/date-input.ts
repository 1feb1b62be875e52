import { FilterInputError } from '../template-error.js';

/** What to format: an instant, and the zone its wall-clock fields are read in. */
export interface DateValue {
  instant: Date;
  /** Calendar dates and date-times without an offset are shown as written (read in UTC). */
  floating: boolean;
  hasTime: boolean;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function bad(): FilterInputError {
  return new FilterInputError(
    'date_format',
    'needs an ISO date ("2026-11-02") or date-time ("2026-11-02T10:30:00Z")',
  );
}

/** A calendar day and time of day as numbers (month 1 to 12), read from a text or from an instant in a zone. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

interface Fields extends WallClock {
  ms: number;
}

/** Date.UTC silently rolls 2026-02-30 over into March; a round-trip check refuses it. */
function utcFromFields(f: Fields): Date {
  const date = new Date(Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, f.ms));
  const valid =
    f.hour < 24 &&
    f.minute < 60 &&
    f.second < 60 &&
    date.getUTCFullYear() === f.year &&
    date.getUTCMonth() === f.month - 1 &&
    date.getUTCDate() === f.day;
  if (!valid) throw bad();
  return date;
}

function offsetMinutes(offset: string): number {
  if (offset.toUpperCase() === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4));
  if (hours > 23 || minutes > 59) throw bad();
  return sign * (hours * 60 + minutes);
}

function parseDateTime(m: RegExpExecArray): DateValue {
  const fraction = (m[7] ?? '0').padEnd(3, '0').slice(0, 3);
  const wall = utcFromFields({
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6] ?? '0'),
    ms: Number(fraction),
  });
  const offset = m[8];
  if (offset === undefined) return { instant: wall, floating: true, hasTime: true };
  const instant = new Date(wall.getTime() - offsetMinutes(offset) * 60_000);
  return { instant, floating: false, hasTime: true };
}

/**
 * ISO 8601 input only (spec: "Dates are YYYY-MM-DD"); a calendar date is never shifted by a time
 * zone, so 2026-11-02 prints as 2 November everywhere.
 */
export function parseDateInput(value: unknown): DateValue {
  if (typeof value !== 'string') throw bad();
  const text = value.trim();
  const date = ISO_DATE.exec(text);
  if (date) {
    const fields = { year: Number(date[1]), month: Number(date[2]), day: Number(date[3]) };
    const instant = utcFromFields({ ...fields, hour: 0, minute: 0, second: 0, ms: 0 });
    return { instant, floating: true, hasTime: false };
  }
  const dateTime = ISO_DATE_TIME.exec(text);
  if (dateTime) return parseDateTime(dateTime);
  throw bad();
}
