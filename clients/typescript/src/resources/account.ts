import { unwrap } from '../core.js';
import type { Account as AccountInfo, DailyUsage, Me, Query, Usage } from '../types.js';
import { Resource } from './resource.js';

/** The team the key belongs to: /me, /account, /account/usage, /account/usage/daily. */
export class Account extends Resource {
  /** GET /me: the team, its plan and the key itself. */
  async me(): Promise<Me> {
    return unwrap(this.core.api.GET('/me'));
  }

  /** GET /account. */
  async retrieve(): Promise<AccountInfo> {
    return unwrap(this.core.api.GET('/account'));
  }

  /** GET /account/usage: documents used this period, included, overage, spending cap. */
  async usage(): Promise<Usage> {
    return unwrap(this.core.api.GET('/account/usage'));
  }

  /**
   * GET /account/usage/daily (extension): documents per UTC day, live and test, every day of the range
   * (default: the current period up to today; `{ from, to }` as YYYY-MM-DD).
   */
  async dailyUsage(query: Query<'getDailyUsage'> = {}): Promise<DailyUsage> {
    return unwrap(this.core.api.GET('/account/usage/daily', { params: { query } }));
  }
}
