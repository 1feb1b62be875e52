import { sql } from 'kysely';
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

/**
 * The request budgets in the database, for several processes on one PostgreSQL: each hit is one upsert that
 * opens a new window or counts in the open one, atomically (the row lock orders concurrent hits), so the
 * N+1th request of a window is refused whichever process it reaches. Refused hits are counted too; the
 * answer is the same (nothing remains until the window resets).
 */
export class DatabaseRateCounter implements RateCounter {
  private hits = 0;

  constructor(private readonly db: Db) {}

  async hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<WindowHit> {
    if (++this.hits % SWEEP_EVERY_HITS === 0) await this.sweep(nowMs);
    const closed = sql<boolean>`${nowMs} >= rate_windows.start_ms + rate_windows.window_ms`;
    const row = await this.db
      .insertInto('rate_windows')
      .values({ key, start_ms: nowMs, window_ms: windowMs, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          start_ms: sql<number>`case when ${closed} then ${nowMs} else rate_windows.start_ms end`,
          window_ms: sql<number>`case when ${closed} then ${windowMs} else rate_windows.window_ms end`,
          count: sql<number>`case when ${closed} then 1 else rate_windows.count + 1 end`,
        }),
      )
      .returning(['start_ms', 'window_ms', 'count'])
      .executeTakeFirstOrThrow();
    const startMs = Number(row.start_ms);
    return {
      allowed: row.count <= limit,
      limit,
      remaining: Math.max(0, limit - row.count),
      resetSeconds: Math.max(1, Math.ceil((startMs + row.window_ms - nowMs) / 1000)),
    };
  }

  private async sweep(nowMs: number): Promise<void> {
    await this.db.deleteFrom('rate_windows').where(sql<boolean>`start_ms + window_ms <= ${nowMs}`).execute();
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
  private adds = 0;

  constructor(private readonly db: Db) {}

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
    if (++this.adds % SWEEP_EVERY_HITS === 0) {
      await this.db
        .deleteFrom('rate_windows')
        .where(sql<boolean>`start_ms + window_ms <= ${nowMs}`)
        .execute();
    }
    const forgotten = sql<boolean>`${nowMs} >= rate_windows.start_ms + rate_windows.window_ms`;
    const row = await this.db
      .insertInto('rate_windows')
      .values({ key, start_ms: nowMs, window_ms: forgetMs, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          start_ms: nowMs,
          window_ms: forgetMs,
          count: sql<number>`case when ${forgotten} then 1 else rate_windows.count + 1 end`,
        }),
      )
      .returning(['count'])
      .executeTakeFirstOrThrow();
    return { failures: row.count, lastMs: nowMs };
  }
}
