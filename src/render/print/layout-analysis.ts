import { AppError } from '../../shared/errors.js';
import { MAX_WARNINGS, type Warning } from '../../shared/warnings.js';
import type { InPage } from '../types.js';
import { type AnalysisResult, analyzeNative, analyzePaged, droppedByPolyfill } from './in-page/entry.js';
import { culprit, type LostContent, scanLayout, unbreakableKind } from './in-page/layout-scan.js';
import { bodyBand, findOverflow, outside, spills } from './in-page/overflow-scan.js';
import {
  applyMargins,
  applySize,
  measurePageBox,
  namedSizeMm,
  type PageBox,
  toPx,
  unnamedPageRules,
} from './in-page/page-box.js';
import { breakPositions, hasPageName, isForcedBreak, pageAt } from './in-page/pager.js';
import { runInPage } from './in-page/run.js';
import { selectorOf } from './in-page/selector.js';

const PAGE_BOX_FUNCTIONS = [measurePageBox, namedSizeMm, toPx, applySize, applyMargins, unnamedPageRules];
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

/**
 * Lays the document out once as print would (print media, viewport = the page area) and scans it:
 * content print mode would cut (content_lost) and, when asked, boxes cut sideways (overflow).
 * The emulation is left in place for printing (which lays out with print media at the paper size
 * whatever the screen state): restoring it here would cost two more layouts (~15–100 ms) of the
 * document. The pool's reset restores it on the blank page afterwards, where it costs next to nothing.
 */
export async function analyzeNativeLayout(page: InPage, scanOverflow: boolean): Promise<AnalysisResult> {
  await page.emulatePrintMedia();
  const box = await runInPage<PageBox>(page, PAGE_BOX_FUNCTIONS, 'measurePageBox', []);
  await page.setViewport({
    width: Math.max(1, Math.round(box.width - box.margin.left - box.margin.right)),
    height: Math.max(1, Math.round(box.height - box.margin.top - box.margin.bottom)),
  });
  const functions = [analyzeNative, ...SCAN_FUNCTIONS, ...OVERFLOW_FUNCTIONS];
  return runInPage<AnalysisResult>(page, functions, 'analyzeNative', [box, scanOverflow]);
}

/** Scans the `.pagedjs_page` boxes the polyfill made. */
export function analyzePolyfillLayout(page: InPage): Promise<AnalysisResult> {
  const functions = [analyzePaged, droppedByPolyfill, findOverflow, spills, outside, selectorOf];
  return runInPage<AnalysisResult>(page, functions, 'analyzePaged', []);
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
