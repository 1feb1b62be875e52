/**
 * The default page box the document prints on (runs inside the page): the request's page options
 * injected as the first `@page` rule, overridden by the document's own unnamed `@page` rules in
 * cascade order (print-mode rule: the document's `@page` wins, see README.md). CSS px (96 per inch).
 */
export interface PageBox {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

/** Named sizes of CSS Paged Media (`size: A4 landscape`), portrait, in mm. */
export function namedSizeMm(name: string): [number, number] | undefined {
  const sizes: Record<string, [number, number]> = {
    a3: [297, 420],
    a4: [210, 297],
    a5: [148, 210],
    a6: [105, 148],
    b4: [250, 353],
    b5: [176, 250],
    letter: [215.9, 279.4],
    legal: [215.9, 355.6],
    ledger: [279.4, 431.8],
  };
  return sizes[name];
}

/**
 * An absolute CSS length in px, parsed rather than measured so no layout is forced before the
 * viewport is set (em/rem count as 16px, the initial font size). Null for anything else.
 */
export function toPx(length: string): number | null {
  const match = /^(-?[\d.]+)(px|mm|cm|in|pt|pc|q|em|rem)?$/i.exec(length.trim());
  if (!match) return null;
  const perUnit: Record<string, number> = {
    px: 1,
    mm: 96 / 25.4,
    cm: 96 / 2.54,
    in: 96,
    pt: 96 / 72,
    pc: 16,
    q: 96 / 101.6,
    em: 16,
    rem: 16,
  };
  const value = Number.parseFloat(match[1]!);
  const unit = (match[2] ?? 'px').toLowerCase();
  return value === 0 ? 0 : value * (perUnit[unit] ?? Number.NaN);
}

/** Applies one `size` value to the box; `auto` and unknown values keep the current size. */
export function applySize(box: PageBox, value: string): void {
  const words = value.trim().toLowerCase().split(/\s+/);
  let landscape: boolean | null = null;
  const lengths: number[] = [];
  for (const word of words) {
    const named = namedSizeMm(word);
    if (named) [box.width, box.height] = [(named[0] * 96) / 25.4, (named[1] * 96) / 25.4];
    else if (word === 'landscape' || word === 'portrait') landscape = word === 'landscape';
    else {
      const px = toPx(word);
      if (px !== null) lengths.push(px);
    }
  }
  if (lengths.length > 0) [box.width, box.height] = [lengths[0]!, lengths[1] ?? lengths[0]!];
  const isLandscape = box.width > box.height;
  if (landscape !== null && landscape !== isLandscape) [box.width, box.height] = [box.height, box.width];
}

/** Margins in `%` refer to the page box's width (left/right) and height (top/bottom). */
export function applyMargins(box: PageBox, style: Pick<CSSStyleDeclaration, 'getPropertyValue'>): void {
  const sides = ['top', 'right', 'bottom', 'left'] as const;
  for (const side of sides) {
    const value = style.getPropertyValue(`margin-${side}`).trim();
    if (!value) continue;
    const base = side === 'top' || side === 'bottom' ? box.height : box.width;
    const px = value.endsWith('%') ? (Number.parseFloat(value) / 100) * base : toPx(value);
    if (px !== null && Number.isFinite(px)) box.margin[side] = px;
  }
}

export function unnamedPageRules(rules: CSSRuleList, out: CSSPageRule[]): CSSPageRule[] {
  for (const rule of Array.from(rules)) {
    if (rule instanceof CSSPageRule && rule.selectorText.trim() === '') out.push(rule);
    else if (rule instanceof CSSMediaRule && window.matchMedia(rule.conditionText).matches) {
      unnamedPageRules(rule.cssRules, out);
    }
  }
  return out;
}

export function measurePageBox(): PageBox {
  const box: PageBox = { width: 794, height: 1123, margin: { top: 0, right: 0, bottom: 0, left: 0 } };
  for (const sheet of Array.from(document.styleSheets)) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // a cross-origin sheet cannot be read; its @page rules are not seen
    }
    for (const rule of unnamedPageRules(rules, [])) {
      const size = rule.style.getPropertyValue('size');
      if (size) applySize(box, size);
      applyMargins(box, rule.style);
    }
  }
  return box;
}

/** The viewport print mode lays the document out at: the page box's content area, whole CSS px. */
export interface PageArea {
  width: number;
  height: number;
}

export function pageAreaOf(box: PageBox): PageArea {
  return {
    width: Math.max(1, Math.round(box.width - box.margin.left - box.margin.right)),
    height: Math.max(1, Math.round(box.height - box.margin.top - box.margin.bottom)),
  };
}
