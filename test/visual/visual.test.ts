import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { fixtureNames, REFERENCES, renderPageOnes } from './render-fixtures.js';

/** Per-pixel colour distance pixelmatch tolerates (anti-aliasing), and the share of pixels that may differ. */
const PIXEL_THRESHOLD = 0.1;
const MAX_DIFF_RATIO = 0.005;
const OUT = new URL('./out/', import.meta.url);

/**
 * Page 1 of every print fixture against the committed reference. After an intended change, run
 * `node scripts/update-visual-refs.mjs` and review the new PNGs in the diff.
 */
describe('visual regression: page 1 of each print fixture', () => {
  let images: Map<string, Buffer>;
  before(async () => {
    images = await renderPageOnes();
  });

  for (const name of fixtureNames().map((n) => n.replace(/\.html$/, '.png'))) {
    test(name, () => {
      const referenceFile = new URL(name, REFERENCES);
      assert.ok(existsSync(referenceFile), `no reference for ${name}: run scripts/update-visual-refs.mjs`);
      const expected = PNG.sync.read(readFileSync(referenceFile));
      const actual = PNG.sync.read(images.get(name)!);
      assert.deepEqual([actual.width, actual.height], [expected.width, expected.height], 'page size');
      const diff = new PNG({ width: actual.width, height: actual.height });
      const changed = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, {
        threshold: PIXEL_THRESHOLD,
      });
      const ratio = changed / (actual.width * actual.height);
      if (ratio > MAX_DIFF_RATIO) {
        mkdirSync(OUT, { recursive: true });
        writeFileSync(new URL(name.replace('.png', '.diff.png'), OUT), PNG.sync.write(diff));
        writeFileSync(new URL(name, OUT), images.get(name)!);
      }
      assert.ok(
        ratio <= MAX_DIFF_RATIO,
        `${(ratio * 100).toFixed(2)}% of pixels differ (see test/visual/out/)`,
      );
    });
  }
});
