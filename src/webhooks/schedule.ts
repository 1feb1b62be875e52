import { backoffTable } from '../jobs/index.js';

/**
 * When deliveries are retried and when an endpoint counts as failing (spec: Events, Delivery 4–5;
 * Webhook endpoint status). The job worker applies the schedule: it is the `webhook_delivery` kind's backoff.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Waits after attempts 1..7: 1 min, 5 min, 30 min, 2 h, 6 h, 7 h, 8 h — 8 attempts over about a day. */
export const RETRY_DELAYS_MS: readonly number[] = [
  MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  6 * HOUR,
  7 * HOUR,
  8 * HOUR,
];

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** The wait after failed attempt number `attempt` (1-based). */
export const deliveryBackoff = backoffTable(RETRY_DELAYS_MS);

/** An endpoint whose every attempt failed for this long is disabled with reason `failing`. */
export const FAILING_DISABLE_AFTER_MS = 24 * HOUR;

/**
 * Whether a failed scheduled attempt disables the endpoint: its failures started (`failingSince`, the first
 * failure after the last success) at least 24 hours before this one. Test events never count.
 */
export function shouldDisable(failingSince: Date | null, failedAt: Date): boolean {
  return failingSince !== null && failedAt.getTime() - failingSince.getTime() >= FAILING_DISABLE_AFTER_MS;
}
