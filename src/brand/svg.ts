import { Resvg } from '@resvg/resvg-js';
import { AppError } from '../shared/errors.js';
import { assertBoundedSvgTree } from './svg-tree.js';

/** Longest side of the PNG an SVG logo becomes: sharp at print size, bounded in bytes and memory. */
export const SVG_RASTER_PX = 1024;

// Images an SVG logo may embed: raster data: URIs only (a nested SVG could name files of its own).
const EMBEDDED_IMAGE = /^data:image\/(png|jpeg|gif|webp)[;,]/i;
const HREF = /(?:^|[\s:])href\s*=\s*(["'])([\s\S]*?)\1/gi;
const CSS_URL = /url\(\s*(["']?)([\s\S]*?)\1\s*\)/gi;

function refuse(message: string): AppError {
  return new AppError('invalid_request', message, { field: 'content_base64' });
}

/** A reference that stays inside the file: `#id` or an embedded raster image. */
function isInternal(target: string): boolean {
  const t = target.trim();
  return t.startsWith('#') || EMBEDDED_IMAGE.test(t);
}

/**
 * Refuses an SVG that could reach anything outside itself: links (`href`, `xlink:href`) and CSS `url()`
 * other than `#id` or a raster data: URI, `@import`, and DOCTYPE/entity declarations (which could build
 * such references). Refusing rather than stripping: the logo then never renders differently than intended.
 */
export function assertSelfContainedSvg(text: string): void {
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw refuse('SVG logos with a DOCTYPE or entity declarations are not accepted; remove them.');
  if (/@import/i.test(text))
    throw refuse('SVG logos may not @import stylesheets; inline the styles instead.');
  for (const pattern of [HREF, CSS_URL]) {
    for (const match of text.matchAll(pattern)) {
      const target = match[2] ?? '';
      if (!isInternal(target))
        throw refuse(
          `SVG logos may not reference external resources (found "${target.slice(0, 80)}"); embed images as data:image/png or data:image/jpeg URIs.`,
        );
    }
  }
}

/**
 * An SVG logo as PNG (spec: an SVG logo is stored as PNG), its longest side SVG_RASTER_PX. Runs in an
 * untrusted-file worker (src/untrusted) under its time limit, after assertBoundedSvgTree has bounded
 * what resvg will expand. resvg runs scripts never and loads only the installed fonts; its own list of
 * images it would still resolve must be empty, a second check behind assertSelfContainedSvg.
 */
export function rasteriseSvg(bytes: Buffer): Buffer {
  const text = bytes.toString('utf8');
  if (!/<svg[\s>]/i.test(text)) throw refuse('The file is neither a PNG, a JPEG nor an SVG image.');
  assertSelfContainedSvg(text);
  assertBoundedSvgTree(text);
  let probe: Resvg;
  try {
    // Size and image references first, without the installed fonts (loading them takes about 200 ms).
    probe = new Resvg(text, { logLevel: 'off', font: { loadSystemFonts: false } });
  } catch (err) {
    throw refuse(`The SVG could not be read: ${err instanceof Error ? err.message : String(err)}.`);
  }
  if (probe.imagesToResolve().length > 0)
    throw refuse('SVG logos may not reference external images; embed them as data: URIs.');
  const { width, height } = probe;
  if (!(width > 0 && height > 0))
    throw refuse('The SVG has no size; give it a width and height or a viewBox.');
  const fitTo =
    width >= height
      ? ({ mode: 'width', value: SVG_RASTER_PX } as const)
      : ({ mode: 'height', value: SVG_RASTER_PX } as const);
  if ((Math.min(width, height) / Math.max(width, height)) * SVG_RASTER_PX < 1)
    throw refuse('The SVG is too narrow to show as a logo.');
  const image = new Resvg(text, { fitTo, logLevel: 'off', font: { loadSystemFonts: true } }).render();
  return image.asPng();
}
