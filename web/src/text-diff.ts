/** One line of a line diff: kept, added in the newer text, or removed from the older one. */
export interface DiffLine {
  kind: 'same' | 'add' | 'del';
  text: string;
}

/**
 * Above this many cells (changed lines of one text × of the other) the table would cost too much memory
 * in the browser; the diff then shows the changed middle as removed-then-added instead of aligning it.
 */
const MAX_CELLS = 4_000_000;

/**
 * A line diff of `older` → `newer` (longest common subsequence over the lines that differ, after the
 * common start and end are taken off). Template sources are small, so the simple table is enough.
 */
export function diffLines(older: string, newer: string): DiffLine[] {
  const a = older.split('\n');
  const b = newer.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (text: string): DiffLine => ({ kind: 'same', text });
  const head = a.slice(0, start).map(same);
  const tail = a.slice(endA).map(same);
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  return [...head, ...diffMiddle(midA, midB), ...tail];
}

function diffMiddle(a: string[], b: string[]): DiffLine[] {
  const del = (text: string): DiffLine => ({ kind: 'del', text });
  const add = (text: string): DiffLine => ({ kind: 'add', text });
  if ((a.length + 1) * (b.length + 1) > MAX_CELLS) return [...a.map(del), ...b.map(add)];
  // lcs[i][j] = length of the longest common subsequence of a[i…] and b[j…], in one flat array.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      out.push(del(a[i++]!));
    } else {
      out.push(add(b[j++]!));
    }
  }
  while (i < a.length) out.push(del(a[i++]!));
  while (j < b.length) out.push(add(b[j++]!));
  return out;
}

/** How many lines were added and removed. */
export function diffCounts(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.kind === 'add') added++;
    else if (line.kind === 'del') removed++;
  }
  return { added, removed };
}
