import { writeFileSync } from 'node:fs';
import { REFERENCES, renderPageOnes } from './render-fixtures.js';

/** Regenerates test/visual/reference/*.png (run through scripts/update-visual-refs.mjs). */
const images = await renderPageOnes();
for (const [name, png] of images) {
  writeFileSync(new URL(name, REFERENCES), png);
  console.log(`wrote test/visual/reference/${name}`);
}
