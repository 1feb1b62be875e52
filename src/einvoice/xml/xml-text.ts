import type { Decimal } from 'decimal.js';
import type { create } from 'xmlbuilder2';

/** An element under construction (xmlbuilder2's XMLBuilder). */
export type Node = ReturnType<typeof create>;
type Attrs = Record<string, string>;

/** XML 1.0 `Char`: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000 and up (no lone surrogates). */
function isXmlChar(cp: number): boolean {
  if (cp === 0x9 || cp === 0xa || cp === 0xd) return true;
  if (cp < 0x20 || cp === 0xfffe || cp === 0xffff) return false;
  return cp < 0xd800 || cp > 0xdfff;
}

/** User text as an XML text node; xmlbuilder2 escapes markup, this drops characters XML cannot carry. */
export function clean(text: string): string {
  let out = '';
  for (const ch of text) if (isXmlChar(ch.codePointAt(0) ?? 0)) out += ch;
  return out;
}

/** Appends `<name>text</name>`; nothing when the value is absent (optional business terms). */
export function leaf(parent: Node, name: string, value: string | undefined | null, attrs?: Attrs): void {
  if (value === undefined || value === null || value === '') return;
  parent.ele(name, attrs).txt(clean(value));
}

/** Amounts are exact decimals with 2 places (EN 16931 BR-DEC rules), the numbers the PDF prints. */
export function amount(value: Decimal): string {
  return value.toFixed(2);
}

/** Quantities, prices and rates: plain decimal notation, never an exponent. */
export function plain(value: Decimal): string {
  return value.toFixed();
}

/** `YYYY-MM-DD` → CII date format 102 `YYYYMMDD`. */
export function date102(isoDate: string): string {
  return isoDate.replaceAll('-', '');
}
