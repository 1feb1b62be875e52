/** A changed area of a page image, in pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The RGBA pixels of an image (ImageData's shape, so this runs without a DOM too). */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** Which cells of a `cell`-pixel grid hold a pixel that differs by more than `tolerance` in any channel. */
function changedCells(a: Pixels, b: Pixels, cell: number, tolerance: number) {
  const cols = Math.ceil(a.width / cell);
  const rows = Math.ceil(a.height / cell);
  const marked = new Uint8Array(cols * rows);
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * 4;
      const delta = Math.max(
        Math.abs(a.data[i]! - b.data[i]!),
        Math.abs(a.data[i + 1]! - b.data[i + 1]!),
        Math.abs(a.data[i + 2]! - b.data[i + 2]!),
      );
      if (delta > tolerance) marked[Math.floor(y / cell) * cols + Math.floor(x / cell)] = 1;
    }
  }
  return { marked, cols, rows };
}

/**
 * The bounding boxes of the changed areas of two same-sized images: changed pixels are grouped on a coarse
 * grid, and cells at most `gap` cells apart join one box, so a changed line of text is one box rather than
 * one per glyph. The tolerance ignores anti-aliasing noise.
 */
export function changedRegions(
  a: Pixels,
  b: Pixels,
  { cell = 8, gap = 1, tolerance = 32 }: { cell?: number; gap?: number; tolerance?: number } = {},
): Box[] {
  const { marked, cols, rows } = changedCells(a, b, cell, tolerance);
  const seen = new Uint8Array(marked.length);
  const boxes: Box[] = [];
  for (let start = 0; start < marked.length; start++) {
    if (!marked[start] || seen[start]) continue;
    let [minC, minR, maxC, maxR] = [cols, rows, 0, 0];
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const at = stack.pop()!;
      const c = at % cols;
      const r = Math.floor(at / cols);
      [minC, minR, maxC, maxR] = [Math.min(minC, c), Math.min(minR, r), Math.max(maxC, c), Math.max(maxR, r)];
      for (let dr = -gap - 1; dr <= gap + 1; dr++) {
        for (let dc = -gap - 1; dc <= gap + 1; dc++) {
          const nc = c + dc;
          const nr = r + dr;
          if (nc < 0 || nr < 0 || nc >= cols || nr >= rows) continue;
          const next = nr * cols + nc;
          if (marked[next] && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    const x = minC * cell;
    const y = minR * cell;
    boxes.push({
      x,
      y,
      width: Math.min(a.width, (maxC + 1) * cell) - x,
      height: Math.min(a.height, (maxR + 1) * cell) - y,
    });
  }
  return boxes;
}
