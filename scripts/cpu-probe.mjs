// A short fixed CPU probe: the same plain JavaScript work on every machine (sorting and JSON, one core, the
// kind of work the suite's Node processes do; no hashing, which some processors accelerate), so a slow test
// run says whether the machine or the suite got slower. The class bounds are in docs/development.md
// "Machine speed"; a loaded machine reads slower than it is, so the best of three runs is taken.
const NUMBERS = Array.from({ length: 50_000 }, (_, i) => (i * 2_654_435_761) % 1_000_003);
const RECORD = { id: 'doc', lines: NUMBERS.slice(0, 2_000).map((n) => ({ n, text: `line ${n}` })) };

function work() {
  for (let i = 0; i < 2; i++) [...NUMBERS].sort((a, b) => a - b);
  for (let i = 0; i < 5; i++) JSON.parse(JSON.stringify(RECORD));
}

/** Milliseconds of one run of the probe (the best of three, so a stray pause does not decide the class). */
export function probeMs() {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3; attempt++) {
    const t0 = performance.now();
    work();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** The machine's speed class from the probe's time. */
export function speedClass(ms) {
  // Read idle: 16–21 ms on the fast kind, 46–53 ms on the slower one (about 2.5× slower per core).
  if (ms < 30) return 'fast';
  if (ms < 80) return 'slower';
  return 'slow or loaded';
}
