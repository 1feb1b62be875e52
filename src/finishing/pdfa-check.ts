import { PDFArray, PDFDict, type PDFDocument, PDFName, PDFStream } from '@cantoo/pdf-lib';
import { decodedStream, pdfText } from '../shared/pdf-objects.js';
import { PdfDecodeLimitError } from '../shared/pdf-stream-decode.js';
import type { PdfALevelName } from './schema.js';

/**
 * Quire's structural PDF/A checker (veraPDF is not available here): the rules a Chromium PDF can break
 * after conversion, the same for e-invoices and every `pdf_a` document. Returns what is wrong, each
 * problem a sentence naming its cause; empty when the file passes. The tests add `qpdf --check`.
 */
export function checkPdfA(doc: PDFDocument, level: PdfALevelName, encrypted = false): string[] {
  const problems: string[] = [];
  if (encrypted) problems.push('the file is encrypted (PDF/A forbids encryption)');
  const xmp = catalogXmp(doc);
  if (xmp === null) problems.push('the catalog has no XMP metadata stream');
  else if (typeof xmp !== 'string') problems.push(xmp.problem);
  else problems.push(...checkXmp(doc, xmp, level));
  if (!hasSrgbOutputIntent(doc)) problems.push('no GTS_PDFA1 OutputIntent with an embedded ICC profile');
  problems.push(...checkObjects(doc, level));
  if (level.endsWith('a')) problems.push(...checkLogicalStructure(doc, level));
  return problems;
}

/** Level A (ISO 19005-2 §6.7): a marked, logically structured file with its natural language. */
function checkLogicalStructure(doc: PDFDocument, level: PdfALevelName): string[] {
  const problems: string[] = [];
  const markInfo = doc.catalog.lookupMaybe(PDFName.of('MarkInfo'), PDFDict);
  if (markInfo?.get(PDFName.of('Marked'))?.toString() !== 'true')
    problems.push(`the file is not marked as tagged (/MarkInfo /Marked true; needed for PDF/A-${level})`);
  if (!doc.catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict))
    problems.push(`the file has no structure tree (needed for PDF/A-${level}): tag it`);
  if (!pdfText(doc.catalog.lookup(PDFName.of('Lang'))))
    problems.push(`the file names no natural language (add <html lang="…"> for PDF/A-${level})`);
  return problems;
}

/** An XMP packet is a few KB (Quire's under 10 KB); a merged source's pages never bring their own. */
const MAX_XMP_BYTES = 4 * 1024 * 1024;

/** The catalog's XMP text, null without one, or why it was not read (a stream past the cap). */
function catalogXmp(doc: PDFDocument): string | null | { problem: string } {
  try {
    const bytes = decodedStream(doc.catalog.lookupMaybe(PDFName.of('Metadata'), PDFStream), MAX_XMP_BYTES);
    return bytes === undefined ? null : Buffer.from(bytes).toString('utf8');
  } catch (err) {
    if (!(err instanceof PdfDecodeLimitError)) throw err;
    return { problem: `the XMP metadata stream was not read (${err.message})` };
  }
}

function xmlUnescape(value: string): string {
  return value
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The first value of an XMP property, simple or inside an rdf container (first rdf:li). */
function xmpValue(xmp: string, property: string): string | undefined {
  const element = new RegExp(`<${property}(?:\\s[^>]*)?>([\\s\\S]*?)</${property}>`).exec(xmp)?.[1];
  const attribute = new RegExp(`\\s${property}="([^"]*)"`).exec(xmp)?.[1];
  const raw = element ?? attribute;
  if (raw === undefined) return undefined;
  const li = /<rdf:li(?:\s[^>]*)?>([\s\S]*?)<\/rdf:li>/.exec(raw)?.[1];
  return xmlUnescape((li ?? raw).trim());
}

/** PDF/A §6.6.2.3: the identification, and every Info entry equal to its XMP counterpart. */
function checkXmp(doc: PDFDocument, xmp: string, level: PdfALevelName): string[] {
  const problems: string[] = [];
  const part = xmpValue(xmp, 'pdfaid:part');
  const conformance = xmpValue(xmp, 'pdfaid:conformance');
  if (part !== level[0] || conformance?.toLowerCase() !== level[1])
    problems.push(`XMP pdfaid says ${part ?? '?'}${conformance ?? '?'}, not ${level}`);
  const info = doc.context.lookupMaybe(doc.context.trailerInfo.Info, PDFDict) ?? doc.context.obj({});
  const pairs: Array<[string, string]> = [
    ['Title', 'dc:title'],
    ['Author', 'dc:creator'],
    ['Subject', 'dc:description'],
    ['Keywords', 'pdf:Keywords'],
    ['Creator', 'xmp:CreatorTool'],
    ['Producer', 'pdf:Producer'],
  ];
  for (const [key, property] of pairs) {
    const infoValue = pdfText(info.lookup(PDFName.of(key)));
    if (infoValue === undefined) continue;
    const xmpText = xmpValue(xmp, property);
    if (xmpText !== infoValue)
      problems.push(`Info /${key} "${infoValue}" and XMP ${property} "${xmpText ?? ''}" differ`);
  }
  return problems;
}

function hasSrgbOutputIntent(doc: PDFDocument): boolean {
  const intents = doc.catalog.lookupMaybe(PDFName.of('OutputIntents'), PDFArray);
  if (!intents) return false;
  for (let i = 0; i < intents.size(); i++) {
    const intent = intents.lookupMaybe(i, PDFDict);
    if (
      intent?.get(PDFName.of('S')) === PDFName.of('GTS_PDFA1') &&
      intent.lookupMaybe(PDFName.of('DestOutputProfile'), PDFStream)
    )
      return true;
  }
  return false;
}

const FONT_FILES = ['FontFile', 'FontFile2', 'FontFile3'].map((n) => PDFName.of(n));
/** Annotation types PDF/A-2/3 §6.3.3 exempt from needing an appearance stream. */
const NO_APPEARANCE_NEEDED = new Set(['/Link', '/Popup']);

function fontName(font: PDFDict): string {
  return font.get(PDFName.of('BaseFont'))?.toString().replace(/^\//, '') ?? 'unnamed font';
}

/** A simple or CID font is embedded when its descriptor carries a font program. */
function fontEmbedded(font: PDFDict): boolean {
  const subtype = font.get(PDFName.of('Subtype'))?.toString();
  if (subtype === '/Type3') return true;
  let target = font;
  if (subtype === '/Type0') {
    const descendant = font.lookupMaybe(PDFName.of('DescendantFonts'), PDFArray)?.lookupMaybe(0, PDFDict);
    if (!descendant) return false;
    target = descendant;
  }
  const descriptor = target.lookupMaybe(PDFName.of('FontDescriptor'), PDFDict);
  return descriptor !== undefined && FONT_FILES.some((n) => descriptor.has(n));
}

/** Fonts, JavaScript/forbidden actions, embedded files and annotations, over every object in the file. */
function checkObjects(doc: PDFDocument, level: PdfALevelName): string[] {
  const problems = new Set<string>();
  // Level A includes Unicode (ISO 19005-2 §6.2.11.7.2 applies to levels A and U alike).
  const unicode = level.endsWith('u') || level.endsWith('a');
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFDict ? object : object instanceof PDFStream ? object.dict : null;
    if (!dict) continue;
    const type = dict.get(PDFName.of('Type'))?.toString();
    const subtype = dict.get(PDFName.of('Subtype'))?.toString();
    const action = dict.get(PDFName.of('S'))?.toString();
    if (action === '/JavaScript' || dict.has(PDFName.of('JS')))
      problems.add('the file contains JavaScript (PDF/A forbids it)');
    if (action === '/Launch' || action === '/ImportData' || action === '/ResetForm')
      problems.add(`the file contains a ${action.slice(1)} action (PDF/A forbids it)`);
    if (type === '/Font' && subtype !== '/CIDFontType0' && subtype !== '/CIDFontType2') {
      if (!fontEmbedded(dict)) problems.add(`font ${fontName(dict)} is not embedded`);
      if (unicode && subtype !== '/Type3' && !dict.has(PDFName.of('ToUnicode')))
        problems.add(`font ${fontName(dict)} has no ToUnicode map (needed for PDF/A-${level})`);
    }
    if (type === '/EmbeddedFile' || type === '/Filespec') {
      if (level[0] === '2' && type === '/Filespec')
        problems.add('the file embeds files (PDF/A-2 allows only PDF/A files; use level 3)');
      if (level[0] === '3' && type === '/Filespec' && !dict.has(PDFName.of('AFRelationship')))
        problems.add('an embedded file has no AFRelationship (PDF/A-3 requires it)');
    }
  }
  for (const problem of checkAnnotations(doc)) problems.add(problem);
  if (doc.catalog.has(PDFName.of('AA')) || namesHas(doc, 'JavaScript'))
    problems.add('the file contains JavaScript (PDF/A forbids it)');
  return [...problems];
}

function namesHas(doc: PDFDocument, key: string): boolean {
  return doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.has(PDFName.of(key)) ?? false;
}

/** PDF/A-2/3 §6.3: every annotation printable, and one with an appearance stream unless a Link or Popup. */
function checkAnnotations(doc: PDFDocument): string[] {
  const problems: string[] = [];
  for (const page of doc.getPages()) {
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    for (let i = 0; i < (annots?.size() ?? 0); i++) {
      const annot = annots?.lookupMaybe(i, PDFDict);
      const subtype = annot?.get(PDFName.of('Subtype'))?.toString() ?? '/Unknown';
      if (!annot) continue;
      if (!NO_APPEARANCE_NEEDED.has(subtype) && !annot.has(PDFName.of('AP')))
        problems.push(`a ${subtype.slice(1)} annotation has no appearance stream`);
      const flags = Number(annot.get(PDFName.of('F'))?.toString() ?? 0);
      if (subtype !== '/Popup' && (flags & 4) === 0)
        problems.push(`a ${subtype.slice(1)} annotation is not printable`);
    }
  }
  return problems;
}
