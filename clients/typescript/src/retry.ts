/**
 * The API's retry rules (spec: Errors): `rate_limited` after `Retry-After` seconds (an answer without it,
 * such as the open-jobs limit, is final); `service_busy` after a few seconds with backoff; `internal_error`
 * once; `idempotency_conflict` later with the same key (each attempt resends the same request, so the
 * same `Idempotency-Key`), after `Retry-After` doubled per attempt; everything else as answered.
 */

export interface RetryOptions {
  /** Attempts in all, the first included (default 4). */
  maxAttempts?: number;
  /** First wait for `service_busy` (and `idempotency_conflict` without Retry-After) in ms, doubled each time (default 2000). */
  busyBaseDelayMs?: number;
  /** Longest single wait in ms (default 60000). */
  maxDelayMs?: number;
  /** Test seam: how to wait. */
  sleep?: (ms: number) => Promise<void>;
}

type Fetch = (request: Request) => Promise<Response>;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The error code of an error answer, or null (the body is read from a clone). */
async function errorCodeOf(response: Response): Promise<string | null> {
  if (!(response.headers.get('content-type') ?? '').includes('json')) return null;
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown } };
    return typeof body.error?.code === 'string' ? body.error.code : null;
  } catch {
    return null;
  }
}

/** A positive `Retry-After` in seconds, or null. */
function retryAfterSeconds(response: Response): number | null {
  const seconds = Number(response.headers.get('retry-after'));
  return response.headers.get('retry-after') !== null && Number.isFinite(seconds) && seconds > 0
    ? seconds
    : null;
}

/** How long to wait before the next attempt, or null when the answer is final. */
export async function retryDelayMs(
  response: Response,
  attempt: number,
  options: Required<Omit<RetryOptions, 'sleep'>>,
): Promise<number | null> {
  if (response.status < 400 || attempt >= options.maxAttempts) return null;
  const code = await errorCodeOf(response);
  if (response.status === 429 && code === 'rate_limited') {
    const seconds = Number(response.headers.get('retry-after'));
    if (!Number.isFinite(seconds) || seconds < 0 || response.headers.get('retry-after') === null) return null;
    return Math.min(seconds * 1000, options.maxDelayMs);
  }
  if (response.status === 503 && code === 'service_busy') {
    const seconds = retryAfterSeconds(response);
    const backoff = options.busyBaseDelayMs * 2 ** (attempt - 1);
    return Math.min(seconds === null ? backoff : Math.max(seconds * 1000, backoff), options.maxDelayMs);
  }
  if (response.status === 409 && code === 'idempotency_conflict') {
    // The first request with this key is still running: wait longer each time for it to finish.
    const seconds = retryAfterSeconds(response);
    const base = seconds === null ? options.busyBaseDelayMs : seconds * 1000;
    return Math.min(base * 2 ** (attempt - 1), options.maxDelayMs);
  }
  if (response.status === 500 && code === 'internal_error' && attempt === 1) return 0;
  return null;
}

/** A fetch that follows the retry rules; each attempt sends a fresh copy of the request. */
export function retryingFetch(fetchImpl: Fetch, options: RetryOptions = {}): Fetch {
  const settings = {
    maxAttempts: options.maxAttempts ?? 4,
    busyBaseDelayMs: options.busyBaseDelayMs ?? 2000,
    maxDelayMs: options.maxDelayMs ?? 60_000,
  };
  const sleep = options.sleep ?? defaultSleep;
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      const response = await fetchImpl(request.clone());
      const delay = await retryDelayMs(response, attempt, settings);
      if (delay === null) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}
