import { api } from '../../helpers/server.js';

/** Wall time of one `GET /v1/me` (the cheapest authenticated request: it only reads the team). */
export async function timeMe(base: string, key: string): Promise<number> {
  const started = performance.now();
  const r = await api(base, 'GET', '/v1/me', { key });
  if (r.status !== 200) throw new Error(`GET /v1/me answered ${r.status}`);
  return performance.now() - started;
}

const PROBE_GAP_MS = 20;

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Unloaded timings of `GET /v1/me`, paced like probeWhile and for about as long as a refused
 * template runs, so both sets see the same scheduling noise of a busy machine.
 */
export async function baseline(base: string, key: string, durationMs = 1500): Promise<number[]> {
  const samples: number[] = [];
  const started = performance.now();
  while (performance.now() - started < durationMs) {
    samples.push(await timeMe(base, key));
    await pause(PROBE_GAP_MS);
  }
  return samples;
}

/**
 * Times `GET /v1/me` again and again (20 ms apart) until `work` settles: every sample is taken
 * while the work is in flight. Returns the work's outcome, its wall time and the samples.
 */
export async function probeWhile<T>(
  base: string,
  key: string,
  work: () => Promise<T>,
): Promise<{ result: T; elapsedMs: number; samples: number[] }> {
  let settled = false;
  const started = performance.now();
  const pending = work().finally(() => {
    settled = true;
  });
  const samples: number[] = [];
  while (!settled) {
    samples.push(await timeMe(base, key));
    await pause(PROBE_GAP_MS);
  }
  const result = await pending;
  return { result, elapsedMs: performance.now() - started, samples };
}

export function max(samples: number[]): number {
  return Math.max(...samples);
}

/** The value below which `fraction` of the samples fall (nearest rank). */
export function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}
