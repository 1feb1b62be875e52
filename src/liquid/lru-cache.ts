/** Bounds of an LruCache: always a number of entries, optionally an estimate of the bytes they hold. */
export interface LruLimits<K, V> {
  maxEntries: number;
  /** With `sizeOf`: the sum of the entries' estimated sizes never passes this. */
  maxBytes?: number;
  /** Estimated bytes an entry holds (key included); required with `maxBytes`. */
  sizeOf?: (key: K, value: V) => number;
}

function checkLimits(limits: LruLimits<unknown, unknown>): void {
  if (!Number.isInteger(limits.maxEntries) || limits.maxEntries < 1) {
    throw new RangeError('LruCache needs a positive integer size.');
  }
  if ((limits.maxBytes === undefined) !== (limits.sizeOf === undefined)) {
    throw new RangeError('LruCache needs maxBytes and sizeOf together.');
  }
}

/**
 * A least-recently-used map bounded by entry count and, when given `maxBytes`, by the estimated
 * bytes of its entries: caches keyed by user input (templates, date patterns, locales) must not
 * be able to hold more memory than their budget. A Map keeps insertion order,
 * so the first key is always the least recently used one (each hit re-inserts its key at the end).
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, { value: V; bytes: number }>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #sizeOf: (key: K, value: V) => number;
  #bytes = 0;

  constructor(limits: number | LruLimits<K, V>) {
    const resolved = typeof limits === 'number' ? { maxEntries: limits } : limits;
    checkLimits(resolved as LruLimits<unknown, unknown>);
    this.#maxEntries = resolved.maxEntries;
    this.#maxBytes = resolved.maxBytes ?? Number.POSITIVE_INFINITY;
    this.#sizeOf = resolved.sizeOf ?? (() => 0);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Estimated bytes held (0 for a cache bounded by entries only). */
  get bytes(): number {
    return this.#bytes;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Stores the value, evicting the least recently used; a value larger than the whole budget is not kept. */
  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.#sizeOf(key, value);
    if (bytes > this.#maxBytes) return;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    while (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  /** Returns the cached value, or makes, stores and returns it. A throwing `make` stores nothing. */
  getOrSet(key: K, make: () => V): V {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = make();
    this.set(key, value);
    return value;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    return true;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}
