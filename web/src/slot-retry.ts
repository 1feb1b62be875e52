/**
 * A render the API refused because every render slot of the team was taken (spec: `rate_limited` with
 * `details.reason` = `concurrency`, `Retry-After: 1`). The dashboard itself fills slots without the user
 * asking — template cards' thumbnails render on first view — so an editor preview refused this way is
 * asked again shortly rather than shown as an error the user did not cause.
 */
export function isSlotBusy(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const { code, details } = err as { code?: unknown; details?: { reason?: unknown } };
  return code === 'rate_limited' && details?.reason === 'concurrency';
}

export interface SlotRetryOptions {
  /** False once the answer is no longer wanted (a newer request replaced it): stop asking. */
  stillWanted: () => boolean;
  /** The spec's Retry-After for concurrency is 1 s. */
  waitMs?: number;
  /** After this many refusals the last one is the answer (the slots stay taken: something else is wrong). */
  attempts?: number;
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `attempt`, asking again while it is refused for busy slots, up to `attempts` times in all. */
export async function retryWhileSlotsBusy<T>(
  attempt: () => Promise<T>,
  options: SlotRetryOptions,
): Promise<T> {
  const { stillWanted, waitMs = 1_000, attempts = 60, sleep = wait } = options;
  for (let tried = 1; ; tried++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isSlotBusy(err) || tried >= attempts || !stillWanted()) throw err;
      await sleep(waitMs);
      if (!stillWanted()) throw err;
    }
  }
}
