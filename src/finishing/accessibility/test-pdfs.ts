import {
  type PDFContext,
  PDFDocument,
  PDFName,
  PDFNumber,
  type PDFPage,
  type PDFRef,
  PDFString,
  StandardFonts,
} from '@cantoo/pdf-lib';
import { embedTextFont } from '../stamp.js';
import { type AccessibilityCheck, checkAccessibility } from './index.js';
import { checkOf } from './report-asserts.js';

/**
 * Hand-made tagged PDFs for the tests of src/finishing/accessibility: a good one, and each test changes
 * one thing in it.
 */

/** A structure element; a leaf paints one marked-content sequence (a square for a Figure, else text). */
export interface Node {
  type: string;
  kids?: Node[];
  alt?: string;
  actualText?: string;
}

interface Spec {
  marked: boolean;
  suspects: boolean;
  structTree: boolean;
  nodes: Node[];
  roleMap?: Record<string, string>;
  lang?: string;
  title?: string;
  xmpTitle?: string;
  displayDocTitle?: boolean;
  font: 'embedded' | 'standard';
  /** Content-stream text painted after the tagged content. */
  extraContent: string;
  /** Changes made to the document before it is saved (resources the extra content names). */
  tweak?: (doc: PDFDocument, page: PDFPage) => void;
}

export const table = (header: boolean): Node => ({
  type: 'Table',
  kids: [
    { type: 'TR', kids: [{ type: header ? 'TH' : 'TD' }] },
    { type: 'TR', kids: [{ type: 'TD' }] },
  ],
});

const GOOD: Spec = {
  marked: true,
  suspects: false,
  structTree: true,
  nodes: [
    { type: 'H1' },
    { type: 'P' },
    { type: 'H2' },
    { type: 'Figure', alt: 'A red square' },
    { type: 'L', kids: [{ type: 'LI', kids: [{ type: 'Lbl' }, { type: 'LBody' }] }] },
    table(true),
  ],
  lang: 'en',
  title: 'Report',
  displayDocTitle: true,
  font: 'embedded',
  extraContent: '',
};

/** Paints each leaf in its own MCID sequence, numbering them from 0 in document order. */
function painter(lines: string[], encode: (text: string) => string, fontName: string) {
  let mcid = 0;
  return (node: Node): number => {
    const id = mcid++;
    const y = 560 - 20 * id;
    const draw =
      node.type === 'Figure'
        ? `50 ${y} 10 10 re f`
        : `BT ${fontName} 12 Tf 50 ${y} Td ${encode(node.type)} Tj ET`;
    lines.push(`/${node.type} <</MCID ${id}>> BDC ${draw} EMC`);
    return id;
  };
}

function addElement(
  doc: PDFDocument,
  node: Node,
  parent: PDFRef,
  page: PDFRef,
  paint: (n: Node) => number,
): PDFRef {
  const ref = doc.context.nextRef();
  const dict = doc.context.obj({ Type: 'StructElem', S: node.type, P: parent, Pg: page });
  if (node.alt !== undefined) dict.set(PDFName.of('Alt'), PDFString.of(node.alt));
  if (node.actualText !== undefined) dict.set(PDFName.of('ActualText'), PDFString.of(node.actualText));
  const kids = node.kids?.map((kid) => addElement(doc, kid, ref, page, paint));
  dict.set(PDFName.of('K'), kids ? doc.context.obj(kids) : PDFNumber.of(paint(node)));
  doc.context.assign(ref, dict);
  return ref;
}

function xmpWithTitle(title: string): string {
  return `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
}

function setCatalog(doc: PDFDocument, spec: Spec, structRoot: PDFRef): void {
  const catalog = doc.catalog;
  if (spec.marked)
    catalog.set(PDFName.of('MarkInfo'), doc.context.obj({ Marked: true, Suspects: spec.suspects }));
  if (spec.structTree) catalog.set(PDFName.of('StructTreeRoot'), structRoot);
  if (spec.lang !== undefined) catalog.set(PDFName.of('Lang'), PDFString.of(spec.lang));
  if (spec.title !== undefined) doc.setTitle(spec.title);
  if (spec.displayDocTitle !== undefined)
    catalog.set(PDFName.of('ViewerPreferences'), doc.context.obj({ DisplayDocTitle: spec.displayDocTitle }));
  if (spec.xmpTitle !== undefined) {
    const xmp = doc.context.stream(xmpWithTitle(spec.xmpTitle), { Type: 'Metadata', Subtype: 'XML' });
    catalog.set(PDFName.of('Metadata'), doc.context.register(xmp));
  }
}

/** The saved bytes of a one-page tagged PDF: GOOD with `changes`; its content stream is not compressed. */
export async function tinyPdf(changes: Partial<Spec> = {}): Promise<Uint8Array> {
  const spec: Spec = { ...GOOD, ...changes };
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([400, 600]);
  const font =
    spec.font === 'embedded' ? await embedTextFont(doc) : await doc.embedFont(StandardFonts.Helvetica);
  const fontName = page.node.newFontDictionary('F', font.ref).toString();
  const lines: string[] = [];
  const paint = painter(lines, (text) => font.encodeText(text).toString(), fontName);
  const rootRef = doc.context.nextRef();
  const documentRef = addElement(doc, { type: 'Document', kids: spec.nodes }, rootRef, page.ref, paint);
  const root = doc.context.obj({ Type: 'StructTreeRoot', K: documentRef });
  if (spec.roleMap) root.set(PDFName.of('RoleMap'), doc.context.obj(spec.roleMap));
  doc.context.assign(rootRef, root);
  const contents = doc.context.stream(`${lines.join('\n')}\n${spec.extraContent}\n`);
  page.node.set(PDFName.of('Contents'), doc.context.register(contents));
  setCatalog(doc, spec, rootRef);
  spec.tweak?.(doc, page);
  return doc.save({ useObjectStreams: false });
}

export async function tinyDoc(changes: Partial<Spec> = {}): Promise<PDFDocument> {
  return PDFDocument.load(await tinyPdf(changes), { updateMetadata: false });
}

type StreamDict = NonNullable<Parameters<PDFContext['stream']>[1]>;

/** An XObject named /Fm0 in the page's resources: a form by default. */
export function addXObject(
  doc: PDFDocument,
  page: PDFPage,
  content: string,
  dict: StreamDict = { Subtype: 'Form', BBox: [0, 0, 10, 10] },
): PDFRef {
  const ref = doc.context.register(doc.context.stream(content, { Type: 'XObject', ...dict }));
  page.node.setXObject(PDFName.of('Fm0'), ref);
  return ref;
}

export const form = (content: string) => (doc: PDFDocument, page: PDFPage) => {
  addXObject(doc, page, content);
};

export async function outcome(id: string, changes: Partial<Spec>): Promise<AccessibilityCheck> {
  return checkOf(checkAccessibility(await tinyDoc(changes)), id);
}
