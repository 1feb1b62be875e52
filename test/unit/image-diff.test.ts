import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changedRegions, type Pixels } from '../../web/src/image-diff.js';

/** A white image with the given rectangles painted black. */
function image(width: number, height: number, black: Array<[number, number, number, number]> = []): Pixels {
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  for (const [x0, y0, w, h] of black) {
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) data.set([0, 0, 0, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** The visual compare of the dashboard: only the changed areas are outlined, each as one box. */
describe('changedRegions', () => {
  it('finds nothing in equal images and ignores anti-aliasing-sized differences', () => {
    const a = image(64, 64, [[10, 10, 20, 4]]);
    assert.deepEqual(changedRegions(a, image(64, 64, [[10, 10, 20, 4]])), []);
    const faint = image(64, 64);
    faint.data.set([240, 240, 240, 255], 0);
    assert.deepEqual(changedRegions(image(64, 64), faint), []);
  });

  it('one added line is one box around it, not the whole page', () => {
    const before = image(200, 300, [[20, 20, 150, 10]]);
    const after = image(200, 300, [
      [20, 20, 150, 10],
      [20, 100, 120, 10],
    ]);
    const boxes = changedRegions(before, after);
    assert.equal(boxes.length, 1);
    const [box] = boxes;
    assert.ok(box!.x <= 20 && box!.y <= 100, JSON.stringify(box));
    assert.ok(box!.x + box!.width >= 140 && box!.y + box!.height >= 110, JSON.stringify(box));
    assert.ok(box!.height < 30, 'the box hugs the line');
  });

  it('distant changes are separate boxes; near glyphs merge into one', () => {
    const after = image(200, 300, [
      [10, 10, 4, 8],
      [18, 10, 4, 8],
      [10, 250, 30, 8],
    ]);
    assert.equal(changedRegions(image(200, 300), after).length, 2);
  });
});
