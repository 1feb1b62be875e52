import { type RawBuilder, sql } from 'kysely';
import type { RateCounter, WindowHit } from '../shared/rate-counter.js';
import type { Db } from './db.js';

/** One fixed window per budget key (spec: a one-minute window starting at the first request). */
export interface RateWindowsTable {
  key: string;
  start_ms: number;
  window_ms: number;
  count: number;
}

export interface RateWindowsTables {
  rate_windows: RateWindowsTable;
}

/** Closed windows are deleted about once per this many hits, so rows stay bounded by active keys. */
const SWEEP_EVERY_HITS = 1_000;

/** Whether the key's row holds a window closed at `nowMs` (the upsert's view of the existing row). */
const closedAt = (nowMs: number) => sql<boolean>`${nowMs} >= rate_windows.start_ms + rate_windows.window_ms`;

/** The one write both counters make; closed windows are swept every SWEEP_EVERY_HITS writes. */
class WindowRows {
  private writes = 0;

  constructor(private readonly db: Db) {}

  /** One atomic upsert: a key without a row starts a window with count 1, an existing row gets `update`. */
  async countOne(
    row: { key: string; nowMs: number; windowMs: number },
    update: {
      start_ms: number | RawBuilder<number>;
      window_ms: number | RawBuilder<number>;
      count: RawBuilder<number>;
    },
  ): Promise<{ start_ms: number; window_ms: number; count: number }> {
    if (++this.writes % SWEEP_EVERY_HITS === 0) {
      await this.db
        .deleteFrom('rate_windows')
        .where(sql<boolean>`start_ms + window_ms <= ${row.nowMs}`)
        .execute();
    }
    return this.db
      .insertInto('rate_windows')
      .values({ key: row.key, start_ms: row.nowMs, window_ms: row.windowMs, count: 1 })
      .onConflict((oc) => oc.column('key').doUpdateSet(update))
      .returning(['start_ms', 'window_ms', 'count'])
      .executeTakeFirstOrThrow();
  }
}

/**
 * The request budgets in the database, for several processes on one PostgreSQL: each hit is one upsert that
 * opens a new window or counts in the open one, atomically (the row lock orders concurrent hits), so the
 * N+1th request of a window is refused whichever process it reaches. Refused hits are counted too; the
 * answer is the same (nothing remains until the window resets).
 */
export class DatabaseRateCounter implements RateCounter {
  private readonly windows: WindowRows;

  constructor(db: Db) {
    this.windows = new WindowRows(db);
  }

  async hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<WindowHit> {
    const closed = closedAt(nowMs);
    const row = await this.windows.countOne(
      { key, nowMs, windowMs },
      {
        start_ms: sql<number>`case when ${closed} then ${nowMs} else rate_windows.start_ms end`,
        window_ms: sql<number>`case when ${closed} then ${windowMs} else rate_windows.window_ms end`,
        count: sql<number>`case when ${closed} then 1 else rate_windows.count + 1 end`,
      },
    );
    const startMs = Number(row.start_ms);
    return {
      allowed: row.count <= limit,
      limit,
      remaining: Math.max(0, limit - row.count),
      resetSeconds: Math.max(1, Math.ceil((startMs + row.window_ms - nowMs) / 1000)),
    };
  }
}

/** Recent failures under one key: how many, and when the last one was. */
export interface FailureCount {
  failures: number;
  lastMs: number;
}

/**
 * Failure counts in the same table, for delays that grow with each failure (sign-in throttling): a row's
 * start_ms is the last failure and its window how long until the count is forgotten, so each failure
 * extends it. In the database on SQLite too, so every process on the data directory sees the same counts.
 */
export class DatabaseFailureCounter {
  private readonly windows: WindowRows;

  constructor(private readonly db: Db) {
    this.windows = new WindowRows(db);
  }

  async read(key: string, nowMs: number): Promise<FailureCount> {
    const row = await this.db
      .selectFrom('rate_windows')
      .select(['start_ms', 'window_ms', 'count'])
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row || nowMs >= Number(row.start_ms) + row.window_ms) return { failures: 0, lastMs: 0 };
    return { failures: row.count, lastMs: Number(row.start_ms) };
  }

  /** Counts one failure (one atomic upsert); the count is forgotten `forgetMs` after the last failure. */
  async add(key: string, nowMs: number, forgetMs: number): Promise<FailureCount> {
    const row = await this.windows.countOne(
      { key, nowMs, windowMs: forgetMs },
      {
        start_ms: nowMs,
        window_ms: forgetMs,
        count: sql<number>`case when ${closedAt(nowMs)} then 1 else rate_windows.count + 1 end`,
      },
    );
    return { failures: row.count, lastMs: nowMs };
  }
}
