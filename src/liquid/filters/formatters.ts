import { FORMATTER_CACHE } from '../limits.js';
import { LruCache } from '../lru-cache.js';

/**
 * Intl formatters are costly to construct (tens of µs) and immutable, so one per option set is
 * shared across renders. Bounded by bytes because locale/currency/zone arguments may come from data.
 */
function formatterCache<V>(): LruCache<string, V> {
  return new LruCache<string, V>({
    maxEntries: FORMATTER_CACHE.maxEntries,
    maxBytes: FORMATTER_CACHE.maxBytes,
    sizeOf: (key) => 2 * key.length + FORMATTER_CACHE.bytesPerFormatter,
  });
}

const numberFormats = formatterCache<Intl.NumberFormat>();
const dateFormats = formatterCache<Intl.DateTimeFormat>();

/** Estimated bytes held by this thread's formatters. */
export function formatterCacheBytes(): number {
  return numberFormats.bytes + dateFormats.bytes;
}

export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  return numberFormats.getOrSet(key, () => new Intl.NumberFormat(locale, options));
}

export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  return dateFormats.getOrSet(key, () => new Intl.DateTimeFormat(locale, options));
}
