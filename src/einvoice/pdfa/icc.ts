import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getDefaultSRGBProfile } from '@cantoo/pdf-lib';

/**
 * The shipped sRGB profile (src/einvoice/assets, Zlib licence). The compiled build (dist/einvoice/pdfa)
 * does not copy assets, so the source tree's copy is the second candidate.
 */
const CANDIDATES = ['../assets/sRGB.icc', '../../../src/einvoice/assets/sRGB.icc'];

let cached: Uint8Array | undefined;

/** sRGB ICC bytes for the PDF/A OutputIntent; pdf-lib's bundled sRGB profile if the asset is missing. */
export function srgbProfile(): Uint8Array {
  if (cached) return cached;
  for (const rel of CANDIDATES) {
    try {
      cached = new Uint8Array(readFileSync(fileURLToPath(new URL(rel, import.meta.url))));
      return cached;
    } catch {
      // try the next location
    }
  }
  cached = getDefaultSRGBProfile();
  return cached;
}
