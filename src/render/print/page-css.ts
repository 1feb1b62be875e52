import { paperLengths } from '../paper.js';
import type { PageOptions } from '../types.js';

/**
 * The request's page options as the first `@page` rule, placed before the job's CSS and the
 * document's styles, so any `@page` rule of the template or document overrides them (print-mode
 * rule "the document's @page wins", README.md). Named pages and `:first`/`:left`/`:right` inherit the
 * size and margins they do not set.
 */
export function printModeCss(page: PageOptions): string {
  const { width, height } = paperLengths(page.format, page.orientation);
  return `@page { size: ${width} ${height}; margin: ${page.margins}; }`;
}

/**
 * Added only to documents where the analysis found boxes wider than the body. Without it Chromium
 * shrinks the whole document (down to 1/1.5) to fit the widest box, silently changing every font
 * size; print mode keeps the authored scale, cuts at the body's edges and reports each cut box as an
 * `overflow` warning (spec "Warning"). html must not be `visible`, or the body's overflow would move
 * to the viewport, where it does not stop the shrinking. Not added by default because a body clip
 * also cuts the wider pages of a named landscape `@page`.
 */
export const SIDEWAYS_CLIP_CSS = '@media print { html { overflow: hidden; } body { overflow-x: clip; } }';
