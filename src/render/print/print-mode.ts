import { composeDocument } from '../html-document.js';
import { pageOptionsToPdfOptions } from '../paper.js';
import type { ModeStrategy, PdfOptions, RenderJob } from '../types.js';
import { needsPolyfill } from './features.js';
import {
  analyzeNativeLayout,
  analyzePolyfillLayout,
  contentLostError,
  emulatePrintLayout,
  overflowWarnings,
} from './layout-analysis.js';
import { expectedPageArea } from './page-area.js';
import { printModeCss, SIDEWAYS_CLIP_CSS } from './page-css.js';
import { layOutWithPolyfill } from './polyfill.js';
import { addStyle } from './style-tag.js';

/**
 * `print` mode (spec "Page option values"): Chromium's native CSS paged media plus Quire's layout
 * analysis — `overflow` warnings for boxes cut sideways, `content_lost` (422) instead of a PDF when
 * content would be cut. Documents using running elements, string-set or target-counter are laid out
 * by the Paged.js polyfill first (features.ts). See README.md for what works how.
 */
export const printMode: ModeStrategy = {
  mode: 'print',
  prepareHtml: (job) => composeDocument(job.html, `${printModeCss(job.page)}\n${job.css ?? ''}`),
  beforeLoad: (page, job) => emulatePrintLayout(page, expectedPageArea(job)),
  analyze: async (page, job) => {
    const polyfill = needsPolyfill(job);
    // Structural checks run on the native layout in both paths: it is the same document and cheap.
    const native = await analyzeNativeLayout(page, !polyfill, expectedPageArea(job));
    if (native.lost) throw contentLostError(native.lost);
    if (!polyfill) {
      if (native.overflow.length > 0) await addStyle(page, SIDEWAYS_CLIP_CSS);
      return { warnings: overflowWarnings(native.overflow) };
    }
    await layOutWithPolyfill(page);
    const paged = await analyzePolyfillLayout(page);
    if (paged.lost) throw contentLostError(paged.lost);
    return { warnings: overflowWarnings(paged.overflow) };
  },
  pdfOptions: (job) => printPdfOptions(job),
};

/**
 * The page size and margins come from CSS (`preferCSSPageSize`): the injected `@page` rule carries the
 * request's options and the document's own `@page` rules override it. Paged.js draws the margins
 * inside its page boxes, so Chromium must add none.
 */
export function printPdfOptions(job: RenderJob): PdfOptions {
  const options = pageOptionsToPdfOptions(job.page, true);
  if (!needsPolyfill(job)) return options;
  return { ...options, margin: { top: '0', right: '0', bottom: '0', left: '0' } };
}
