import SaxonJS from 'saxonjs-he';

/** The DOM-like nodes SaxonJS builds (a subset of the W3C DOM). */
export interface XmlNode {
  nodeType: number;
  localName: string | null;
  namespaceURI: string | null;
  textContent: string | null;
  childNodes: ArrayLike<XmlNode>;
  getAttribute(name: string): string | null;
}

const ELEMENT = 1;

export function childElements(node: XmlNode): XmlNode[] {
  const out: XmlNode[] = [];
  for (let i = 0; i < node.childNodes.length; i++) {
    const child = node.childNodes[i] as XmlNode;
    if (child.nodeType === ELEMENT) out.push(child);
  }
  return out;
}

/**
 * Parses untrusted XML with SaxonJS's own parser (it resolves no external entities). A DOCTYPE is refused
 * before parsing: no e-invoice has one, and internal entities are how an "entity expansion" file grows.
 * Throws with the parser's message (line and column) on malformed XML.
 */
export function parseXml(text: string): XmlNode {
  if (/<!DOCTYPE/i.test(text))
    throw new Error('the XML has a DOCTYPE declaration, which e-invoices never have');
  return SaxonJS.XPath.evaluate('parse-xml($text)', null, { params: { text } }) as XmlNode;
}

/** The document's root element. */
export function rootOf(doc: XmlNode): XmlNode | undefined {
  return childElements(doc)[0];
}
