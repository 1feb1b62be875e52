import { DATE_PATTERN_LIMITS } from '../limits.js';
import { LruCache } from '../lru-cache.js';
import { FilterInputError } from '../template-error.js';
import type { WallClock } from './date-input.js';
import { dateFormat } from './formatters.js';

/** A compiled LDML-style pattern: literal text and fields such as `dd`, `MMMM`, `HH`. */
type Part = { literal: string } | { letter: string; width: number };

/** Supported pattern letters and their widths (a subset of Unicode LDML date patterns). */
const WIDTHS: Record<string, readonly number[]> = {
  y: [1, 2, 4],
  M: [1, 2, 3, 4],
  d: [1, 2],
  E: [1, 2, 3, 4],
  H: [1, 2],
  h: [1, 2],
  m: [1, 2],
  s: [1, 2],
  a: [1],
};

/** Estimated bytes of a compiled pattern: the key string plus one small object per part. */
const BYTES_PER_PART = 96;

const compiled = new LruCache<string, Part[]>({
  maxEntries: DATE_PATTERN_LIMITS.cacheEntries,
  maxBytes: DATE_PATTERN_LIMITS.cacheBytes,
  sizeOf: (pattern, parts) => 2 * pattern.length + BYTES_PER_PART * parts.length,
});

/** Estimated bytes held by this thread's compiled patterns. */
export function patternCacheBytes(): number {
  return compiled.bytes;
}

function unknownLetter(): FilterInputError {
  return new FilterInputError(
    'date_format',
    'has an unsupported pattern letter (use y, M, d, E, H, h, m, s, a; quote other text)',
  );
}

function readQuoted(pattern: string, start: number, parts: Part[]): number {
  let i = start + 1;
  let text = '';
  while (i < pattern.length) {
    if (pattern[i] === "'") {
      if (pattern[i + 1] !== "'") break;
      i += 1;
    }
    text += pattern[i];
    i += 1;
  }
  parts.push({ literal: i === start + 1 && pattern[i] === "'" ? "'" : text });
  return i + 1;
}

function compile(pattern: string): Part[] {
  const parts: Part[] = [];
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i] as string;
    if (ch === "'") {
      i = readQuoted(pattern, i, parts);
    } else if (/[A-Za-z]/.test(ch)) {
      let width = 1;
      while (pattern[i + width] === ch) width += 1;
      if (!WIDTHS[ch]?.includes(width)) throw unknownLetter();
      parts.push({ letter: ch, width });
      i += width;
    } else {
      parts.push({ literal: ch });
      i += 1;
    }
  }
  return parts;
}

/** Wall-clock numbers of the instant in the zone (en-US + h23 gives plain Latin digits). */
function numericFields(instant: Date, timeZone: string): WallClock {
  const fmt = dateFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const out: Record<string, number> = {};
  for (const part of fmt.formatToParts(instant)) out[part.type] = Number(part.value);
  return {
    year: out.year ?? 0,
    month: out.month ?? 0,
    day: out.day ?? 0,
    hour: out.hour ?? 0,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
  };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function dayPeriod(instant: Date, locale: string, timeZone: string): string {
  const parts = dateFormat(locale, { timeZone, hour: 'numeric', hour12: true }).formatToParts(instant);
  return parts.find((p) => p.type === 'dayPeriod')?.value ?? '';
}

function nameOf(
  instant: Date,
  locale: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): string {
  return dateFormat(locale, { timeZone, ...options }).format(instant);
}

function field(
  letter: string,
  width: number,
  n: WallClock,
  ctx: { instant: Date; locale: string; zone: string },
) {
  switch (letter) {
    case 'y':
      return width === 2 ? pad(n.year % 100, 2) : pad(n.year, width);
    case 'M':
      if (width >= 3)
        return nameOf(ctx.instant, ctx.locale, ctx.zone, { month: width === 4 ? 'long' : 'short' });
      return pad(n.month, width);
    case 'd':
      return pad(n.day, width);
    case 'E':
      return nameOf(ctx.instant, ctx.locale, ctx.zone, { weekday: width === 4 ? 'long' : 'short' });
    case 'H':
      return pad(n.hour, width);
    case 'h':
      return pad(n.hour % 12 === 0 ? 12 : n.hour % 12, width);
    case 'm':
      return pad(n.minute, width);
    case 's':
      return pad(n.second, width);
    default:
      return dayPeriod(ctx.instant, ctx.locale, ctx.zone);
  }
}

/** Formats with a pattern such as `dd.MM.yyyy HH:mm` or `EEEE, d MMMM yyyy` (at most 100 characters). */
export function formatPattern(pattern: string, instant: Date, locale: string, zone: string): string {
  if (pattern.length > DATE_PATTERN_LIMITS.maxChars) {
    throw new FilterInputError(
      'date_format',
      `needs a pattern of at most ${DATE_PATTERN_LIMITS.maxChars} characters`,
    );
  }
  const parts = compiled.getOrSet(pattern, () => compile(pattern));
  const numbers = numericFields(instant, zone);
  const ctx = { instant, locale, zone };
  let out = '';
  for (const part of parts) {
    out += 'literal' in part ? part.literal : field(part.letter, part.width, numbers, ctx);
  }
  return out;
}
