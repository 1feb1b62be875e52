import { paperLengths } from '../paper.js';
import type { PageOptions } from '../types.js';

/**
 * The style sheet print mode puts before the job's CSS and the document's own styles.
 *
 * 1. The request's page options as the first `@page` rule, so any `@page` rule of the template or
 *    document overrides them (print-mode rule "the document's @page wins", README.md). Named pages and
 *    `:first`/`:left`/`:right` inherit the size and margins they do not set.
 * 2. Body clips sideways: Chromium otherwise shrinks the whole document (up to 1/1.5) when one box is
 *    wider than the page, silently changing every font size. Print mode keeps the authored scale and
 *    reports what is cut as `overflow` warnings (spec "Warning"). html must not be `visible` or the
 *    body's overflow would move to the viewport, where it does not stop the shrinking.
 */
export function printModeCss(page: PageOptions): string {
  const { width, height } = paperLengths(page.format, page.orientation);
  return [
    `@page { size: ${width} ${height}; margin: ${page.margins}; }`,
    '@media print { html { overflow: hidden; } body { overflow-x: clip; } }',
  ].join('\n');
}
