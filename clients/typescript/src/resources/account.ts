import { unwrap } from '../core.js';
import type { Account as AccountInfo, Me, Usage } from '../types.js';
import { Resource } from './resource.js';

/** The team the key belongs to: /me, /account, /account/usage. */
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
}
