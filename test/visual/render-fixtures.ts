import { readdirSync } from 'node:fs';
import { fastMode } from '../../src/render/fast-mode.js';
import { printMode } from '../../src/render/print/index.js';
import { firstPagePng } from '../helpers/pdf.js';
import { FIXTURES, fixture, Harness, job } from '../integration/print/harness.js';

/** Fixtures print mode refuses with content_lost: their page 1 is taken from fast mode. */
const FAST_ONLY = new Set(['table-in-cell.html', 'rowspan-tall.html', 'tall-svg.html']);

/** Resolution of the comparison images: coarse enough to ignore sub-pixel text jitter. */
export const VISUAL_DPI = 50;

export const REFERENCES = new URL('./reference/', import.meta.url);

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES)
    .filter((name) => name.endsWith('.html'))
    .sort();
}

/** Page 1 of each fixture as PNG (pdftoppm), keyed by the reference file name. */
export async function renderPageOnes(): Promise<Map<string, Buffer>> {
  const harness = await Harness.start();
  const images = new Map<string, Buffer>();
  try {
    for (const name of fixtureNames()) {
      const strategy = FAST_ONLY.has(name) ? fastMode : printMode;
      const { pdf } = await harness.render(strategy, job(fixture(name), { mode: strategy.mode }));
      images.set(name.replace(/\.html$/, '.png'), await firstPagePng(pdf, VISUAL_DPI));
    }
  } finally {
    await harness.close();
  }
  return images;
}
