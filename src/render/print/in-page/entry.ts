import { type LostContent, scanLayout } from './layout-scan.js';
import { bodyBand, findOverflow, type OverflowHit } from './overflow-scan.js';
import { measurePageBox, type PageArea, type PageBox, pageAreaOf } from './page-box.js';
import { pageAt } from './pager.js';
import { selectorOf } from './selector.js';

export interface AnalysisResult {
  lost: LostContent | null;
  overflow: OverflowHit[];
}

/** Native print layout (runs inside the page, viewport = page area, print media emulated). */
export async function analyzeNative(box: PageBox, scanOverflow: boolean): Promise<AnalysisResult> {
  // Faces start loading only when laid-out text uses them: lay out first, then wait for them.
  document.body.getBoundingClientRect();
  await document.fonts.ready;
  const scan = scanLayout(box.height - box.margin.top - box.margin.bottom);
  if (scan.lost || !scanOverflow) return { lost: scan.lost, overflow: [] };
  const band = bodyBand();
  const hits: OverflowHit[] = [];
  const pageOf = (_el: Element, rect: DOMRect) => pageAt(scan.geometry, rect.top + window.scrollY);
  for (const child of Array.from(document.body.children)) findOverflow(child, band, pageOf, hits);
  return { lost: null, overflow: hits };
}

/** The document's page area differs from the viewport it was laid out at: lay it out at this one. */
export interface Relayout {
  relayout: PageArea;
}

/**
 * Native analysis when the document is laid out at the page area `viewport` (print media already
 * emulated); otherwise the page area to set first. A null viewport skips the check (the second try).
 */
export function analyzeNativeAt(
  viewport: PageArea | null,
  scanOverflow: boolean,
): Promise<AnalysisResult> | Relayout {
  const box = measurePageBox();
  const area = pageAreaOf(box);
  if (viewport && (area.width !== viewport.width || area.height !== viewport.height))
    return { relayout: area };
  return analyzeNative(box, scanOverflow);
}

/** After Paged.js laid out `.pagedjs_page` boxes: overflow per page, and source boxes it dropped. */
export function analyzePaged(): AnalysisResult {
  const pages = Array.from(document.querySelectorAll('.pagedjs_page'));
  const hits: OverflowHit[] = [];
  pages.forEach((page, index) => {
    const rect = page.getBoundingClientRect();
    const band = { left: rect.left, right: rect.right };
    for (const area of Array.from(page.querySelectorAll('.pagedjs_page_content > div'))) {
      for (const child of Array.from(area.children)) findOverflow(child, band, () => index + 1, hits);
    }
  });
  return { lost: droppedByPolyfill(pages), overflow: hits };
}

interface PagedGlobal {
  PagedPolyfill?: { chunker?: { source?: ParentNode } };
}

/**
 * Paged.js silently drops boxes it cannot lay out (pagedjs issue #351): every source element carries a
 * `data-ref`, so one missing from all pages is content lost. Named at the page after its last
 * rendered ancestor.
 */
export function droppedByPolyfill(pages: Element[]): LostContent | null {
  const source = (window as unknown as PagedGlobal).PagedPolyfill?.chunker?.source;
  if (!source) return null;
  const rendered = new Map<string, number>();
  pages.forEach((page, index) => {
    for (const el of Array.from(page.querySelectorAll('[data-ref]')))
      rendered.set(el.getAttribute('data-ref')!, index + 1);
  });
  for (const el of Array.from(source.querySelectorAll('[data-ref]'))) {
    if (rendered.has(el.getAttribute('data-ref')!)) continue;
    let page = 1;
    for (let up = el.parentElement; up; up = up.parentElement) {
      const at = rendered.get(up.getAttribute('data-ref') ?? '');
      if (at) {
        page = at;
        break;
      }
    }
    return { selector: selectorOf(el), page, kind: 'unbreakable' };
  }
  return null;
}
