/** Polls `probe` every `intervalMs` until it returns a value other than null; fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null>,
  timeoutMs = 60_000,
  intervalMs = 100,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** waitFor for a yes/no condition (polled every 25 ms): resolves once `check` holds. */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  await waitFor(what, async () => ((await check()) ? true : null), timeoutMs, 25);
}

/** `work`, unless `timeoutMs` pass first: then a rejection with `message` (a hang caught, not a limit tested). */
export function withinTime<T>(work: Promise<T>, timeoutMs: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
