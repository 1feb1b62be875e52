/** One document render, however the contender does it. */
export type RenderOnce = () => Promise<unknown>;

export interface LatencyResult {
  p50: number;
  p95: number;
  cpuMsPerDoc: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;
}

/** Sequential renders (c=1) after a warm-up; CPU from the contender's whole process tree. */
export async function latency(once: RenderOnce, n: number, cpuMs: () => number): Promise<LatencyResult> {
  for (let i = 0; i < 3; i++) await once();
  const times: number[] = [];
  const cpu0 = cpuMs();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  const cpu = cpuMs() - cpu0;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), cpuMsPerDoc: cpu / n };
}

/** Documents per second with `concurrency` renders in flight. */
/**
 * Docs/s of several contenders at one concurrency, measured in alternating rounds (A, B, A, B, …) and
 * summed per contender, so a change in the machine's load during the run reaches all of them alike.
 */
export async function alternatingThroughput(
  contenders: readonly RenderOnce[],
  perRound: number,
  rounds: number,
  concurrency: number,
): Promise<number[]> {
  const seconds = contenders.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    for (const [i, once] of contenders.entries()) {
      seconds[i] = (seconds[i] ?? 0) + perRound / (await throughput(once, perRound, concurrency));
    }
  }
  return seconds.map((s) => (perRound * rounds) / s);
}

export async function throughput(once: RenderOnce, n: number, concurrency: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next += 1;
        await once();
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}
