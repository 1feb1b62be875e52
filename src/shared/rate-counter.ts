import { AppError, type ErrorDetails } from './errors.js';

/**
 * Fixed-window counters (spec: a one-minute window starting at the first request). In-memory for a single
 * process; with PostgreSQL the database holds them for all processes (storage/rate-windows.ts).
 */
export interface WindowHit {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1 while it is open). */
  resetSeconds: number;
}

export interface RateCounter {
  /** Counts one request (a shared store answers asynchronously). */
  hit(key: string, limit: number, windowMs: number, nowMs: number): WindowHit | Promise<WindowHit>;
}

interface Window {
  startMs: number;
  windowMs: number;
  count: number;
}

export class MemoryRateCounter implements RateCounter {
  private readonly windows = new Map<string, Window>();
  private lastSweepMs = 0;

  hit(key: string, limit: number, windowMs: number, nowMs: number): WindowHit {
    this.sweep(nowMs);
    let w = this.windows.get(key);
    if (!w || nowMs >= w.startMs + w.windowMs) {
      w = { startMs: nowMs, windowMs, count: 0 };
      this.windows.set(key, w);
    }
    const allowed = w.count < limit;
    if (allowed) w.count += 1;
    return this.describe(w, limit, nowMs, allowed);
  }

  private describe(w: Window, limit: number, nowMs: number, allowed: boolean): WindowHit {
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - w.count),
      resetSeconds: Math.max(1, Math.ceil((w.startMs + w.windowMs - nowMs) / 1000)),
    };
  }

  /** Drops closed windows now and then so memory stays bounded by active keys. */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < 60_000) return;
    this.lastSweepMs = nowMs;
    for (const [key, w] of this.windows) if (nowMs >= w.startMs + w.windowMs) this.windows.delete(key);
  }
}

const MINUTE_MS = 60_000;

/**
 * Counts one use against a per-minute budget and refuses with `rate_limited` and `Retry-After` when it is
 * spent (spec: Limits). `onRefused` sees the window first (e.g. to set the x-ratelimit-* headers).
 */
export async function spendBudget(
  rate: RateCounter,
  budget: { key: string; limit: number; nowMs: number; message: string; details?: ErrorDetails },
  onRefused?: (hit: WindowHit) => void,
): Promise<WindowHit> {
  const hit = await rate.hit(budget.key, budget.limit, MINUTE_MS, budget.nowMs);
  if (hit.allowed) return hit;
  onRefused?.(hit);
  throw new AppError('rate_limited', budget.message, budget.details, {
    'retry-after': String(hit.resetSeconds),
  });
}
