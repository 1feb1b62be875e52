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

/** Namespaces of the prefixes the writers use (the UBL root's own namespace is declared on it). */
const NAMESPACES: Record<string, string> = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/**
 * Appends `<name>`. The namespace is passed explicitly: xmlbuilder2 otherwise resolves the prefix by
 * walking the ancestors, which made a 2,000-line invoice take over a second to build.
 */
export function child(parent: Node, name: string, attrs?: Attrs): Node {
  const ns = NAMESPACES[name.slice(0, name.indexOf(':'))];
  return ns ? parent.ele(ns, name, attrs) : parent.ele(name, attrs);
}

/** Appends `<name>text</name>`; nothing when the value is absent (optional business terms). */
export function leaf(parent: Node, name: string, value: string | undefined | null, attrs?: Attrs): void {
  if (value === undefined || value === null || value === '') return;
  child(parent, name, attrs).txt(clean(value));
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
