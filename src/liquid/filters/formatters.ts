import { LruCache } from '../lru-cache.js';

/**
 * Intl formatters are costly to construct (tens of µs) and immutable, so one per option set is
 * shared across renders. Bounded because locale/currency/zone arguments may come from data.
 */
const numberFormats = new LruCache<string, Intl.NumberFormat>(256);
const dateFormats = new LruCache<string, Intl.DateTimeFormat>(256);

export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  return numberFormats.getOrSet(key, () => new Intl.NumberFormat(locale, options));
}

export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  return dateFormats.getOrSet(key, () => new Intl.DateTimeFormat(locale, options));
}
