import type { Decimal } from 'decimal.js';

type Attrs = Record<string, string>;

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeText = (text: string) => text.replace(/[&<>]/g, (c) => TEXT_ESCAPES[c] ?? c);
const escapeAttr = (value: string) => value.replace(/[&<>"]/g, (c) => TEXT_ESCAPES[c] ?? c);

/**
 * An element under construction. The writers only ever append elements, text-only leaves and
 * attributes given at creation, with every namespace declared on the root, so a plain tree printed
 * with two-space indentation is the whole job (xmlbuilder2's namespace-aware DOM cost more per
 * e-invoice than the PDF/A step). The output is byte for byte what xmlbuilder2's `prettyPrint` wrote.
 */
export class Node {
  private readonly children: Node[] = [];
  private text = '';

  constructor(
    private readonly name: string,
    private readonly attrs?: Attrs,
  ) {}

  /** Appends a child element and returns it. */
  ele(name: string, attrs?: Attrs): Node {
    if (this.text !== '') throw new Error(`<${this.name}> already has text: mixed content is not written`);
    const el = new Node(name, attrs);
    this.children.push(el);
    return el;
  }

  /** Appends text (markup is escaped when printed). */
  txt(text: string): this {
    if (this.children.length > 0)
      throw new Error(`<${this.name}> has elements: mixed content is not written`);
    this.text += text;
    return this;
  }

  /** Prints this element at `indent` into `lines`. */
  print(lines: string[], indent: string): void {
    let open = `${indent}<${this.name}`;
    for (const [key, value] of Object.entries(this.attrs ?? {})) open += ` ${key}="${escapeAttr(value)}"`;
    if (this.children.length === 0) {
      lines.push(this.text === '' ? `${open}/>` : `${open}>${escapeText(this.text)}</${this.name}>`);
      return;
    }
    lines.push(`${open}>`);
    const inner = `${indent}  `;
    for (const el of this.children) el.print(lines, inner);
    lines.push(`${indent}</${this.name}>`);
  }
}

/** The root element of a document; every namespace prefix the document uses is declared in `attrs`. */
export function xmlRoot(name: string, attrs: Attrs): Node {
  return new Node(name, attrs);
}

/** The finished document: XML declaration, then the tree indented by two spaces, no final newline. */
export function xmlText(root: Node): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  root.print(lines, '');
  return lines.join('\n');
}

/** XML 1.0 `Char`: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000 and up (no lone surrogates). */
function isXmlChar(cp: number): boolean {
  if (cp === 0x9 || cp === 0xa || cp === 0xd) return true;
  if (cp < 0x20 || cp === 0xfffe || cp === 0xffff) return false;
  return cp < 0xd800 || cp > 0xdfff;
}

/** User text as an XML text node; printing escapes markup, this drops characters XML cannot carry. */
export function clean(text: string): string {
  let out = '';
  for (const ch of text) if (isXmlChar(ch.codePointAt(0) ?? 0)) out += ch;
  return out;
}

/** Appends `<name>`. */
export function child(parent: Node, name: string, attrs?: Attrs): Node {
  return parent.ele(name, attrs);
}

/** Appends `<name>text</name>`; nothing when the value is absent (optional business terms). */
export function leaf(parent: Node, name: string, value: string | undefined | null, attrs?: Attrs): void {
  if (value === undefined || value === null || value === '') return;
  child(parent, name, attrs).txt(clean(value));
}

/** A leaf per entry (element name to value), in the entries' order; absent values are skipped as by leaf. */
export function leaves(parent: Node, values: Readonly<Record<string, string | undefined | null>>): void {
  for (const [name, value] of Object.entries(values)) leaf(parent, name, value);
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
