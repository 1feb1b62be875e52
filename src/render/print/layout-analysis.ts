import { AppError } from '../../shared/errors.js';
import { MAX_WARNINGS, type Warning } from '../../shared/warnings.js';
import type { InPage } from '../types.js';
import {
  type AnalysisResult,
  analyzeNative,
  analyzeNativeAt,
  analyzePaged,
  droppedByPolyfill,
  type Relayout,
} from './in-page/entry.js';
import { culprit, type LostContent, scanLayout, unbreakableKind } from './in-page/layout-scan.js';
import { bodyBand, findOverflow, outside, spills } from './in-page/overflow-scan.js';
import {
  applyMargins,
  applySize,
  measurePageBox,
  namedSizeMm,
  type PageArea,
  pageAreaOf,
  toPx,
  unnamedPageRules,
} from './in-page/page-box.js';
import { breakPositions, hasPageName, isForcedBreak, pageAt } from './in-page/pager.js';
import { runInPage } from './in-page/run.js';
import { selectorOf } from './in-page/selector.js';

const PAGE_BOX_FUNCTIONS = [
  measurePageBox,
  namedSizeMm,
  toPx,
  applySize,
  applyMargins,
  unnamedPageRules,
  pageAreaOf,
];
const SCAN_FUNCTIONS = [
  scanLayout,
  unbreakableKind,
  culprit,
  breakPositions,
  isForcedBreak,
  hasPageName,
  pageAt,
  selectorOf,
];
const OVERFLOW_FUNCTIONS = [findOverflow, bodyBand, spills, outside];
const NATIVE_FUNCTIONS = [
  analyzeNativeAt,
  analyzeNative,
  ...PAGE_BOX_FUNCTIONS,
  ...SCAN_FUNCTIONS,
  ...OVERFLOW_FUNCTIONS,
];
const PAGED_FUNCTIONS = [analyzePaged, droppedByPolyfill, findOverflow, spills, outside, selectorOf];

/**
 * Print media and a viewport of the (expected) page area, set before the document is loaded, so its
 * first layout is already the one the analysis needs: switching media and width after the load cost a
 * second full style recalculation and layout of the document. Printing ignores both; the pool's reset
 * restores them on the blank page afterwards, where it costs next to nothing.
 */
export async function emulatePrintLayout(page: InPage, area: PageArea): Promise<void> {
  await Promise.all([page.emulatePrintMedia(), page.setViewport(area)]);
}

/**
 * Scans the document laid out as print would (print media, viewport = the page area, emulatePrintLayout):
 * content print mode would cut (content_lost) and, when asked, boxes cut sideways (overflow). When the
 * document's own `@page` rules give another page area than `expected`, the viewport is set to it first.
 */
export async function analyzeNativeLayout(
  page: InPage,
  scanOverflow: boolean,
  expected: PageArea,
): Promise<AnalysisResult> {
  const run = (viewport: PageArea | null) =>
    runInPage<AnalysisResult | Relayout>(page, NATIVE_FUNCTIONS, 'analyzeNativeAt', [viewport, scanOverflow]);
  const first = await run(expected);
  if (!('relayout' in first)) return first;
  await page.setViewport(first.relayout);
  // Unchecked: a page area that depends on the viewport (`@media (width …)` around `@page`) must not loop.
  return (await run(null)) as AnalysisResult;
}

/** Scans the `.pagedjs_page` boxes the polyfill made. */
export function analyzePolyfillLayout(page: InPage): Promise<AnalysisResult> {
  return runInPage<AnalysisResult>(page, PAGED_FUNCTIONS, 'analyzePaged', []);
}

const LOST_WHAT: Record<LostContent['kind'], string> = {
  table_in_cell: 'a table inside a table cell',
  rowspan: 'a table cell spanning several rows',
  unbreakable: 'a box that cannot be split across pages',
};

/** Spec `content_lost` (422): names the element (tag and up to two classes) and the page. */
export function contentLostError(lost: LostContent): AppError {
  const message =
    `Print mode would cut off content: ${LOST_WHAT[lost.kind]} (${lost.selector}) on page ${lost.page} ` +
    'is taller than the page area. Make it shorter, split it, or render in fast mode.';
  return new AppError('content_lost', message, { selector: lost.selector, page: lost.page });
}

/** Spec "Warning": one `overflow` per element and page, at most 20. */
export function overflowWarnings(hits: AnalysisResult['overflow']): Warning[] {
  const seen = new Set<string>();
  const warnings: Warning[] = [];
  for (const hit of hits) {
    const key = `${hit.selector}\u0000${hit.page}`;
    if (seen.has(key)) continue;
    seen.add(key);
    warnings.push({ code: 'overflow', selector: hit.selector, page: hit.page });
    if (warnings.length === MAX_WARNINGS) break;
  }
  return warnings;
}
