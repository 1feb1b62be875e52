import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getDefaultSRGBProfile } from '@cantoo/pdf-lib';
import { packageRoot } from '../shared/package-root.js';

/**
 * The shipped sRGB profile (src/einvoice/assets, Zlib licence), read from the source tree's place in
 * every layout (the server bundle copies no assets; the image copies that folder).
 */
const PROFILE = ['src', 'einvoice', 'assets', 'sRGB.icc'];

let cached: Uint8Array | undefined;

/** sRGB ICC bytes for the PDF/A OutputIntent; pdf-lib's bundled sRGB profile if the asset is missing. */
export function srgbProfile(): Uint8Array {
  if (cached) return cached;
  try {
    cached = new Uint8Array(readFileSync(path.join(packageRoot(), ...PROFILE)));
  } catch {
    cached = getDefaultSRGBProfile();
  }
  return cached;
}
