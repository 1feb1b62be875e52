import { breakPositions, hasPageName, isForcedBreak, type PageGeometry, pageAt } from './pager.js';
import { selectorOf } from './selector.js';

/** Something the paged layout would cut off (spec error `content_lost`). */
export interface LostContent {
  selector: string;
  page: number;
  kind: 'table_in_cell' | 'rowspan' | 'unbreakable';
}

export interface ScanResult {
  geometry: PageGeometry;
  lost: LostContent | null;
}

/**
 * Why an element cannot be fragmented by print mode (runs inside the page). Spec `content_lost`:
 * a table inside a cell and a rowspan cell are kept whole in print mode; replaced elements, inline
 * blocks, scroll containers and fixed boxes are monolithic for Chromium too (it slices them across
 * pages, cutting lines in half).
 */
export function unbreakableKind(el: Element, style: CSSStyleDeclaration): LostContent['kind'] | null {
  const tag = el.localName;
  if (tag === 'td' || tag === 'th') {
    if ((el as HTMLTableCellElement).rowSpan > 1) return 'rowspan';
    if (el.getElementsByTagName('table').length > 0) return 'table_in_cell';
    return null;
  }
  const replaced = ['img', 'svg', 'canvas', 'video', 'iframe', 'object', 'embed', 'textarea', 'select'];
  if (replaced.includes(tag)) return tag === 'svg' && el.parentElement?.closest('svg') ? null : 'unbreakable';
  if (['inline-block', 'inline-flex', 'inline-grid'].includes(style.display)) return 'unbreakable';
  if (style.position === 'fixed') return 'unbreakable';
  if (style.overflowY === 'auto' || style.overflowY === 'scroll') return 'unbreakable';
  return null;
}

/** The element to name: for a table in a cell, the inner table; otherwise the box itself. */
export function culprit(el: Element, kind: LostContent['kind']): Element {
  return kind === 'table_in_cell' ? (el.querySelector('table') ?? el) : el;
}

/**
 * One pass over the laid-out body: forced breaks (for page numbers) and the first box taller than the
 * page area that print mode cannot split. Inside svg only the root is looked at.
 */
export function scanLayout(contentHeight: number): ScanResult {
  const breaks: number[] = [];
  const tall: { el: Element; kind: LostContent['kind']; top: number }[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node as Element;
    const style = getComputedStyle(el);
    if (style.display === 'none') continue;
    const isSvgInner = el.localName !== 'svg' && el instanceof SVGElement;
    if (isSvgInner) continue;
    // Geometry only where it matters: most elements neither break pages nor are unbreakable.
    const kind = unbreakableKind(el, style);
    const breaking =
      isForcedBreak(style.breakBefore) || isForcedBreak(style.breakAfter) || hasPageName(style);
    if (!kind && !breaking) continue;
    const rect = el.getBoundingClientRect();
    const top = rect.top + window.scrollY;
    if (breaking) breaks.push(...breakPositions(el, style, top, top + rect.height));
    if (kind && rect.height > contentHeight + 1) tall.push({ el, kind, top });
  }
  const geometry = { contentHeight, breaks: [...new Set(breaks)].sort((a, b) => a - b) };
  const first = tall[0];
  const lost = first
    ? {
        selector: selectorOf(culprit(first.el, first.kind)),
        page: pageAt(geometry, first.top),
        kind: first.kind,
      }
    : null;
  return { geometry, lost };
}
