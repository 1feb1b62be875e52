import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { assertLooksLikeReference } from '../helpers/images.js';
import { fixtureNames, REFERENCES, renderPageOnes } from './render-fixtures.js';

/** The share of pixels that may differ from the reference. */
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
      assertLooksLikeReference(images.get(name)!, readFileSync(referenceFile), {
        name: name.replace(/\.png$/, ''),
        maxDiffRatio: MAX_DIFF_RATIO,
        out: OUT,
      });
    });
  }
});
