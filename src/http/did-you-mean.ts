/** Suggestions for near-miss names (`margin` → `margins`, `template-id` → `template_id`). */

/** Levenshtein distance, stopping early once it exceeds `limit` (names are short; this stays cheap). */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] as number;
}

/** Case and `-`/`_` differences are the commonest slips; they cost nothing. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/-/g, '_');
}

/** The closest of `known` to `name`, or null when none is close enough to be a likely typo. */
export function didYouMean(name: string, known: readonly string[]): string | null {
  if (name.length > 100) return null;
  const wanted = normalise(name);
  // One edit for short names (so "css" does not suggest "csv"-like noise), two for longer ones.
  const limit = wanted.length < 5 ? 1 : 2;
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = editDistance(wanted, normalise(candidate), limit);
    if (distance <= limit && (best === null || distance < best.distance))
      best = { name: candidate, distance };
  }
  return best?.name ?? null;
}
