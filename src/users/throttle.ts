import { setTimeout as sleep } from 'node:timers/promises';
import { ipBudgetKey } from '../http/client-address.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { FailureCount } from '../storage/index.js';

/** A delay that doubles with each failure past the free ones, up to a cap. */
export interface DelayRule {
  free: number;
  baseMs: number;
  capMs: number;
}

/**
 * Wrong passwords from one client address (any accounts): past 10, that address is refused (429 with
 * Retry-After) until 1 s, 2 s, 4 s … after its last failure, at most 15 minutes. Only that address waits.
 */
export const ADDRESS_DELAY: DelayRule = { free: 10, baseMs: 1000, capMs: 15 * 60 * 1000 };
/**
 * Wrong passwords for one account (from any address): past 10, every attempt on it is answered 250 ms,
 * 500 ms … later, at most 5 s. It slows a guesser spread over many addresses without locking the owner out:
 * the right password still signs in, only later.
 */
export const ACCOUNT_DELAY: DelayRule = { free: 10, baseMs: 250, capMs: 5000 };
/** Counts are forgotten an hour after the last failure. */
const FORGET_MS = 60 * 60 * 1000;

/** The delay owed after `failures` failures. */
export function delayAfter(failures: number, rule: DelayRule): number {
  if (failures < rule.free) return 0;
  return Math.min(rule.capMs, rule.baseMs * 2 ** Math.min(30, failures - rule.free));
}

/** Where failures are counted (storage/rate-windows.ts: the database, shared by every process). */
export interface FailureStore {
  read(key: string, nowMs: number): Promise<FailureCount>;
  add(key: string, nowMs: number, forgetMs: number): Promise<FailureCount>;
}

/** The keys of one password check: the account (normalised email) and the client address. */
export interface Attempt {
  account: string;
  address: string;
}

const addressKey = (attempt: Attempt) => `throttle:password:ip:${ipBudgetKey(attempt.address)}`;
const accountKey = (attempt: Attempt) => `throttle:password:account:${attempt.account.trim().toLowerCase()}`;

/**
 * Throttles password checks (sign-in and the current password of a password change) without lock-out:
 * failures delay later attempts per address (refused until the delay has passed) and per account (held
 * for the delay, then checked as usual).
 */
export class PasswordThrottle {
  constructor(
    private readonly store: FailureStore,
    private readonly clock: Clock,
  ) {}

  /** Before a password check: 429 while the address owes a delay, then waits out the account's. */
  async before(attempt: Attempt): Promise<void> {
    const nowMs = this.clock.now().getTime();
    const [address, account] = await Promise.all([
      this.store.read(addressKey(attempt), nowMs),
      this.store.read(accountKey(attempt), nowMs),
    ]);
    const addressReady = address.lastMs + delayAfter(address.failures, ADDRESS_DELAY);
    if (address.failures > 0 && nowMs < addressReady) {
      const seconds = Math.max(1, Math.ceil((addressReady - nowMs) / 1000));
      throw new AppError(
        'rate_limited',
        `Too many wrong passwords from your address. Try again in ${seconds} seconds.`,
        undefined,
        { 'retry-after': String(seconds) },
      );
    }
    const hold = delayAfter(account.failures, ACCOUNT_DELAY);
    if (hold > 0) await sleep(hold);
  }

  /** Counts a wrong password against the address and the account. */
  async failed(attempt: Attempt): Promise<void> {
    const nowMs = this.clock.now().getTime();
    await Promise.all([
      this.store.add(addressKey(attempt), nowMs, FORGET_MS),
      this.store.add(accountKey(attempt), nowMs, FORGET_MS),
    ]);
  }
}
