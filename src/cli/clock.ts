import { type Clock, systemClock } from '../shared/clock.js';
import { UsageError } from './usage-error.js';

/**
 * The CLI's clock. Tests of billing periods run the real CLI at a chosen moment: with NODE_ENV=test,
 * QUIRE_NOW (an ISO 8601 time) fixes the CLI's "now". Ignored in every other environment.
 */
export function cliClock(env: NodeJS.ProcessEnv = process.env): Clock {
  const fixed = env.NODE_ENV === 'test' ? env.QUIRE_NOW : undefined;
  if (!fixed) return systemClock;
  const at = new Date(fixed);
  if (Number.isNaN(at.getTime())) throw new UsageError(`QUIRE_NOW must be an ISO 8601 time, not "${fixed}".`);
  return { now: () => new Date(at) };
}
