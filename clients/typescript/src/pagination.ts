/**
 * One way to read every list, whatever the API's style for it: `limit`/`offset` with `has_more` (templates),
 * `before`/`next_before` (documents, batches, deliveries), `after`/`next_after` (batch items), or one page
 * with everything (keys, members, webhooks, brand assets, versions).
 *
 *   for await (const document of quire.documents.list({ status: 'failed' })) { … }
 *   const first = await quire.templates.list({ limit: 20 }).firstPage();
 */

/** One page as the API answered it. */
export interface Page<T> {
  data: T[];
  /** Whether another page follows (iterate, or call `nextPage()`). */
  hasMore: boolean;
  nextPage(): Promise<Page<T>> | null;
}

/** Reads the page at `cursor` (undefined: the first); `next` is the cursor of the following page or null. */
export type PageReader<T, C> = (cursor: C | undefined) => Promise<{ data: T[]; next: C | null }>;

/** A list: iterate it with `for await` to get every item, page after page, as they are needed. */
export class PagedList<T, C = unknown> implements AsyncIterable<T> {
  readonly #read: PageReader<T, C>;

  constructor(read: PageReader<T, C>) {
    this.#read = read;
  }

  /** The first page only. */
  firstPage(): Promise<Page<T>> {
    return this.#page(undefined);
  }

  /** Every item (or the first `limit` items) in one array. */
  async toArray(options: { limit?: number } = {}): Promise<T[]> {
    const items: T[] = [];
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    if (limit <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let cursor: C | undefined;
    for (;;) {
      const { data, next } = await this.#read(cursor);
      yield* data;
      if (next === null || data.length === 0) return;
      cursor = next;
    }
  }

  async #page(cursor: C | undefined): Promise<Page<T>> {
    const { data, next } = await this.#read(cursor);
    const hasMore = next !== null && data.length > 0;
    return { data, hasMore, nextPage: () => (hasMore ? this.#page(next) : null) };
  }
}

/** `limit`/`offset` with `has_more`: the next offset is this one plus the items read. */
export function offsetPages<T>(
  read: (offset: number | undefined) => Promise<{ data: T[]; has_more: boolean }>,
  start?: number,
): PagedList<T, number> {
  return new PagedList<T, number>(async (cursor) => {
    const offset = cursor ?? start;
    const page = await read(offset);
    return { data: page.data, next: page.has_more ? (offset ?? 0) + page.data.length : null };
  });
}

/** `before`/`next_before` (newest first). */
export function beforePages<T>(
  read: (before: string | undefined) => Promise<{ data: T[]; next_before: string | null }>,
  start?: string,
): PagedList<T, string> {
  return new PagedList<T, string>(async (cursor) => {
    const page = await read(cursor ?? start);
    return { data: page.data, next: page.next_before };
  });
}

/** `after`/`next_after` (in order). */
export function afterPages<T>(
  read: (after: string | undefined) => Promise<{ data: T[]; next_after: string | null }>,
  start?: string,
): PagedList<T, string> {
  return new PagedList<T, string>(async (cursor) => {
    const page = await read(cursor ?? start);
    return { data: page.data, next: page.next_after };
  });
}

/** A list the API answers whole, in one page. */
export function singlePage<T>(read: () => Promise<{ data: T[] }>): PagedList<T, never> {
  return new PagedList<T, never>(async () => ({ data: (await read()).data, next: null }));
}
