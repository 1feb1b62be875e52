import { FilterInputError } from '../template-error.js';
import { parseDateInput } from './date-input.js';
import { formatPattern } from './date-pattern.js';
import { dateFormat } from './formatters.js';
import { isNil, localeInput } from './inputs.js';
import type { FilterDefaults } from './numbers.js';

const STYLES = new Set(['short', 'medium', 'long', 'full']);

function zoneInput(value: unknown, fallback: string): string {
  const zone = isNil(value) || value === '' ? fallback : value;
  if (typeof zone === 'string') {
    try {
      dateFormat('en-US', { timeZone: zone });
      return zone;
    } catch {
      // Reported below as the filter's own error.
    }
  }
  throw new FilterInputError('date_format', 'needs an IANA time zone such as "Europe/Berlin"');
}

function formatInput(value: unknown): string {
  if (isNil(value) || value === '') return 'medium';
  if (typeof value === 'string') return value;
  throw new FilterInputError(
    'date_format',
    'needs a pattern such as "dd.MM.yyyy" or a style (short, medium, long, full)',
  );
}

/**
 * `{{ invoice.issue_date | date_format: "long", "de-DE" }}` → `2. November 2026`;
 * `{{ sent_at | date_format: "dd.MM.yyyy HH:mm", "de-DE", "Europe/Berlin" }}`.
 * A style formats the date only (Intl dateStyle); a pattern may add the time. Instants with an
 * offset are shown in the time zone (default: the engine's); dates and offset-less date-times are
 * shown as written. Nil prints nothing.
 */
export function dateFormatFilter(defaults: FilterDefaults) {
  return (value: unknown, format?: unknown, locale?: unknown, timeZone?: unknown): string => {
    if (isNil(value)) return '';
    const date = parseDateInput(value);
    const pattern = formatInput(format);
    const tag = localeInput('date_format', locale, defaults.locale);
    const requested = zoneInput(timeZone, defaults.timeZone);
    const zone = date.floating ? 'UTC' : requested;
    if (STYLES.has(pattern)) {
      const dateStyle = pattern as 'short' | 'medium' | 'long' | 'full';
      return dateFormat(tag, { dateStyle, timeZone: zone }).format(date.instant);
    }
    return formatPattern(pattern, date.instant, tag, zone);
  };
}
