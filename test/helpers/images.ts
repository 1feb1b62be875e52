import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

/** pixelmatch's per-pixel colour tolerance: anti-aliasing differs between runs without the picture changing. */
const PIXEL_THRESHOLD = 0.1;

/**
 * Asserts that the PNG `actual` has the size of the PNG `reference` and that at most `maxDiffRatio` of its
 * pixels differ from it. Past that, `out` gets NAME.png and NAME.diff.png, for a look at what changed.
 */
export function assertLooksLikeReference(
  actual: Buffer,
  reference: Buffer,
  options: { name: string; maxDiffRatio: number; out: URL },
): void {
  const { name, maxDiffRatio, out } = options;
  const expected = PNG.sync.read(reference);
  const shot = PNG.sync.read(actual);
  assert.deepEqual([shot.width, shot.height], [expected.width, expected.height], `${name}: image size`);
  const diff = new PNG({ width: shot.width, height: shot.height });
  const changed = pixelmatch(expected.data, shot.data, diff.data, shot.width, shot.height, {
    threshold: PIXEL_THRESHOLD,
  });
  const ratio = changed / (shot.width * shot.height);
  if (ratio > maxDiffRatio) {
    mkdirSync(out, { recursive: true });
    writeFileSync(new URL(`${name}.diff.png`, out), PNG.sync.write(diff));
    writeFileSync(new URL(`${name}.png`, out), actual);
  }
  assert.ok(
    ratio <= maxDiffRatio,
    `${name}: ${(ratio * 100).toFixed(2)}% of pixels differ (see ${path.relative(process.cwd(), fileURLToPath(out))}/)`,
  );
}
