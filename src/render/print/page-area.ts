import type { RenderJob } from '../types.js';
import { applyMargins, applySize, type PageArea, type PageBox, pageAreaOf } from './in-page/page-box.js';
import { printModeCss } from './page-css.js';

const SIDES = ['top', 'right', 'bottom', 'left'] as const;

/** One to four margin lengths as CSS expands them (top, right, bottom, left). */
function expandMargin(value: string): string[] {
  const v = value.trim().split(/\s+/);
  return [v[0]!, v[1] ?? v[0]!, v[2] ?? v[0]!, v[3] ?? v[1] ?? v[0]!];
}

/**
 * The declarations written directly in each unnamed `@page { … }` block of a text, in order. Nested
 * margin boxes (`@top-center { … }`) are skipped; named and pseudo-class pages are not unnamed.
 */
function unnamedPageDeclarations(text: string): string[][] {
  const css = text.replace(/\/\*[\s\S]*?\*\//g, '');
  const blocks: string[][] = [];
  for (const match of css.matchAll(/@page\s*\{/gi)) {
    const declarations: string[] = [];
    let current = '';
    let depth = 1;
    for (let i = match.index + match[0].length; i < css.length && depth > 0; i++) {
      const c = css[i]!;
      if (c === '{') {
        if (depth === 1) current = ''; // the prelude of a nested margin box
        depth++;
      } else if (c === '}') {
        depth--;
        if (depth === 0) declarations.push(current);
        current = depth === 1 ? '' : current;
      } else if (depth === 1) {
        if (c === ';') {
          declarations.push(current);
          current = '';
        } else current += c;
      }
    }
    blocks.push(declarations);
  }
  return blocks;
}

/** Applies one `@page` block's size and margins the way the in-page measurePageBox does. */
function applyBlock(box: PageBox, declarations: string[]): void {
  const margins = new Map<string, string>();
  let size = '';
  for (const declaration of declarations) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration
      .slice(colon + 1)
      .replace(/!\s*important/i, '')
      .trim();
    if (!value) continue;
    if (name === 'size') size = value;
    else if (name === 'margin') {
      for (const [i, v] of expandMargin(value).entries()) margins.set(`margin-${SIDES[i]}`, v);
    } else if (SIDES.some((side) => name === `margin-${side}`)) margins.set(name, value);
  }
  if (size) applySize(box, size);
  applyMargins(box, { getPropertyValue: (property: string) => margins.get(property) ?? '' });
}

/**
 * The page area print mode will most likely lay the job out at, read from the `@page` rules in its
 * text before the document exists, so the document can be loaded straight into the print layout.
 * Only a guess (a linked sheet or an `@media` condition is not seen): the analysis measures the real
 * page box from the loaded style sheets and relays out when the guess was wrong.
 */
export function expectedPageArea(job: Pick<RenderJob, 'html' | 'css' | 'page'>): PageArea {
  const box: PageBox = { width: 794, height: 1123, margin: { top: 0, right: 0, bottom: 0, left: 0 } };
  const text = `${printModeCss(job.page)}\n${job.css ?? ''}\n${job.html}`;
  for (const declarations of unnamedPageDeclarations(text)) applyBlock(box, declarations);
  return pageAreaOf(box);
}
