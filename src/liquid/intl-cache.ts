/**
 * liquidjs's `date` filter makes a new Intl.DateTimeFormat for every month or weekday name it prints
 * (`%b`, `%B`, `%a`, `%A`: LiquidDate.format). Each is an ICU object in native memory that V8 does not
 * count in its heap, so a worker whose JS heap grows slowly runs no full collection for a long time and
 * the formatters pile up: about 100 KB of resident memory per invoice, 1.4 GB after 12,000 renders of the
 * bench invoice in one pool (issue 54's soak). Formatters are immutable, so the worker hands out one per
 * (locales, options), from a bounded cache: templates choose the locales and options, so the number of
 * distinct keys is theirs to grow.
 */
const MAX_FORMATTERS = 256;

type DateTimeFormatConstructor = typeof Intl.DateTimeFormat;

/** A key for the arguments, or null for arguments a cache cannot compare (objects other than plain options). */
function keyOf(locales: unknown, options: unknown): string | null {
  try {
    return JSON.stringify([locales ?? null, options ?? null]);
  } catch {
    return null;
  }
}

/**
 * Replaces `intl.DateTimeFormat` (this thread's Intl) with one that returns a shared formatter for
 * arguments it has seen (with or without `new`, as the built-in may be called). `instanceof`, the prototype
 * and supportedLocalesOf stay the built-in's. Only for the Liquid workers' own threads.
 */
export function shareDateTimeFormats(intl: typeof Intl = Intl): void {
  const Native: DateTimeFormatConstructor = intl.DateTimeFormat;
  const formatters = new Map<string, Intl.DateTimeFormat>();
  function SharedDateTimeFormat(locales?: unknown, options?: unknown): Intl.DateTimeFormat {
    const key = keyOf(locales, options);
    if (key === null) return new Native(locales as string, options as Intl.DateTimeFormatOptions);
    let formatter = formatters.get(key);
    if (formatter) {
      formatters.delete(key);
    } else {
      formatter = new Native(locales as string, options as Intl.DateTimeFormatOptions);
      if (formatters.size >= MAX_FORMATTERS) formatters.delete(formatters.keys().next().value as string);
    }
    formatters.set(key, formatter);
    return formatter;
  }
  SharedDateTimeFormat.prototype = Native.prototype;
  SharedDateTimeFormat.supportedLocalesOf = Native.supportedLocalesOf.bind(Native);
  Object.defineProperty(intl, 'DateTimeFormat', {
    value: SharedDateTimeFormat,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}
