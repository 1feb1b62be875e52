import { selectorOf } from './selector.js';

/** A horizontal band; boxes past it are cut sideways (spec warning `overflow`). */
export interface Band {
  left: number;
  right: number;
}

export interface OverflowHit {
  selector: string;
  page: number;
}

/** 1 px of slack absorbs sub-pixel rounding of borders and text. */
export function outside(rect: DOMRect, band: Band): boolean {
  return rect.width > 0 && (rect.right > band.right + 1 || rect.left < band.left - 1);
}

/** Content of a box that runs past its own right edge (a long word, a nowrap line). */
export function spills(el: Element, rect: DOMRect, band: Band): boolean {
  return el.clientWidth > 0 && rect.left + el.scrollWidth > band.right + 1;
}

/**
 * Finds the outermost boxes that run past the band (runs inside the page). A box that is itself
 * outside is reported and its children skipped; a box whose text spills is reported when no child
 * explains the spill. Boxes that clip their overflow hide their children's overflow.
 */
export function findOverflow(
  el: Element,
  band: Band,
  pageOf: (el: Element, rect: DOMRect) => number,
  hits: OverflowHit[],
): boolean {
  if (el instanceof SVGElement && el.localName !== 'svg') return false;
  const rect = el.getBoundingClientRect();
  if (outside(rect, band)) {
    hits.push({ selector: selectorOf(el), page: pageOf(el, rect) });
    return true;
  }
  const style = getComputedStyle(el);
  if (style.display === 'none' || style.overflowX !== 'visible') return false;
  let found = false;
  for (const child of Array.from(el.children)) {
    if (findOverflow(child, band, pageOf, hits)) found = true;
  }
  if (!found && spills(el, rect, band) && el !== document.body) {
    hits.push({ selector: selectorOf(el), page: pageOf(el, rect) });
    return true;
  }
  return found;
}

/** The body's padding box: print mode clips there when anything runs past it (page-css.ts). */
export function bodyBand(): Band {
  const body = document.body;
  const rect = body.getBoundingClientRect();
  const left = rect.left + body.clientLeft;
  return { left, right: left + body.clientWidth };
}
