/**
 * Page numbers from the page geometry (runs inside the page). The document is laid out once at the
 * page area's width with print media; a box at height `y` is on page
 * pagesBeforeSegment + floor((y - segmentStart) / contentHeight) + 1, where segments start at forced
 * breaks (break-before/after: page|left|right|recto|verso, named page changes). Break avoidance and
 * repeated table headers shift real breaks a little, so the number can be one off in long documents.
 */
export interface PageGeometry {
  contentHeight: number;
  /** Document y positions where a forced page break starts a new page, ascending. */
  breaks: number[];
}

export function isForcedBreak(value: string): boolean {
  return ['page', 'left', 'right', 'recto', 'verso'].includes(value);
}

export function pageAt(geometry: PageGeometry, y: number): number {
  const height = Math.max(1, geometry.contentHeight);
  let pages = 0;
  let segmentStart = 0;
  for (const at of geometry.breaks) {
    if (at > y) break;
    if (at <= segmentStart + 0.5) continue;
    pages += Math.max(1, Math.ceil((at - segmentStart - 0.5) / height));
    segmentStart = at;
  }
  return pages + Math.floor(Math.max(0, y - segmentStart) / height) + 1;
}

/** A named page (`page: name`): a change of name forces a page break. */
export function hasPageName(style: CSSStyleDeclaration): boolean {
  const name = style.getPropertyValue('page');
  return name !== '' && name !== 'auto';
}

/** Document y of the break an element causes, or null. Named pages break where the page name changes. */
export function breakPositions(
  el: Element,
  style: CSSStyleDeclaration,
  top: number,
  bottom: number,
): number[] {
  const out: number[] = [];
  if (isForcedBreak(style.breakBefore)) out.push(top);
  if (isForcedBreak(style.breakAfter)) out.push(bottom);
  const name = style.getPropertyValue('page');
  if (name && name !== 'auto') {
    const pageOf = (sibling: Element | null) =>
      sibling ? getComputedStyle(sibling).getPropertyValue('page') || 'auto' : name;
    if (pageOf(el.previousElementSibling) !== name) out.push(top);
    if (pageOf(el.nextElementSibling) !== name) out.push(bottom);
  }
  return out;
}
