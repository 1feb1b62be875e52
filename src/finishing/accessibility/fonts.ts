import { PDFArray, PDFDict, type PDFDocument, PDFName, PDFStream } from '@cantoo/pdf-lib';
import { pdfText } from '../../shared/pdf-objects.js';
import { listed, type Outcome } from './outcome.js';
import { nameOf } from './pdf-values.js';

/** The fonts the pages use: each embedded, each mapping its codes to Unicode. */

const FONT_FILES = ['FontFile', 'FontFile2', 'FontFile3'].map((name) => PDFName.of(name));
/** Simple-font encodings whose glyph names map to Unicode without a ToUnicode CMap (31-027). */
const STANDARD_ENCODINGS = new Set(['WinAnsiEncoding', 'MacRomanEncoding', 'MacExpertEncoding']);
/** Adobe's CJK character collections, which map CIDs to Unicode by their published tables. */
const ADOBE_CJK = new Set(['GB1', 'CNS1', 'Japan1', 'Korea1']);

interface PageFonts {
  fonts: PDFDict[];
  /** Font resource names that lead to no font dictionary (a dangling reference, a wrong type). */
  broken: string[];
}

/**
 * Every font in the pages' resources and in the form XObjects they paint, each once. On a document
 * pdf-lib is still building, a font embedded since the last save or flush() has no dictionary yet.
 */
function pageFonts(doc: PDFDocument): PageFonts {
  const found: PageFonts = { fonts: [], broken: [] };
  const seen = new Set<PDFDict>();
  const pending: Array<PDFDict | undefined> = doc.getPages().map((page) => page.node.Resources());
  while (pending.length > 0) {
    const resources = pending.pop();
    if (!resources || seen.has(resources)) continue;
    seen.add(resources);
    const fontDict = resources.lookupMaybe(PDFName.of('Font'), PDFDict);
    for (const [name, value] of fontDict?.entries() ?? []) {
      const font = doc.context.lookup(value);
      if (!(font instanceof PDFDict)) found.broken.push(`${name.decodeText()}: not a font dictionary`);
      else if (!found.fonts.includes(font)) found.fonts.push(font);
    }
    const xobjects = resources.lookupMaybe(PDFName.of('XObject'), PDFDict);
    for (const [, value] of xobjects?.entries() ?? []) {
      const xobject = doc.context.lookup(value);
      if (xobject instanceof PDFStream)
        pending.push(xobject.dict.lookupMaybe(PDFName.of('Resources'), PDFDict));
    }
  }
  return found;
}

/** The dictionary that carries the descriptor: a Type0 font's descendant CIDFont, else the font itself. */
function describedFont(font: PDFDict): PDFDict | undefined {
  if (nameOf(font.get(PDFName.of('Subtype'))) !== 'Type0') return font;
  return font.lookupMaybe(PDFName.of('DescendantFonts'), PDFArray)?.lookupMaybe(0, PDFDict);
}

function isEmbedded(font: PDFDict): boolean {
  const descriptor = describedFont(font)?.lookupMaybe(PDFName.of('FontDescriptor'), PDFDict);
  return descriptor !== undefined && FONT_FILES.some((name) => descriptor.has(name));
}

function mapsToUnicode(font: PDFDict): boolean {
  if (font.has(PDFName.of('ToUnicode'))) return true;
  if (nameOf(font.get(PDFName.of('Subtype'))) === 'Type0') {
    const info = describedFont(font)?.lookupMaybe(PDFName.of('CIDSystemInfo'), PDFDict);
    const registry = pdfText(info?.lookup(PDFName.of('Registry')));
    return registry === 'Adobe' && ADOBE_CJK.has(pdfText(info?.lookup(PDFName.of('Ordering'))) ?? '');
  }
  const encoding = font.lookup(PDFName.of('Encoding'));
  const base = encoding instanceof PDFDict ? encoding.get(PDFName.of('BaseEncoding')) : encoding;
  return STANDARD_ENCODINGS.has(nameOf(base) ?? '');
}

/** Type3 fonts are glyph procedures in the file itself: nothing to embed, and PDF/UA leaves them be here. */
function fontProblems(font: PDFDict): string[] {
  if (nameOf(font.get(PDFName.of('Subtype'))) === 'Type3') return [];
  const problems: string[] = [];
  if (!isEmbedded(font)) problems.push('not embedded');
  if (!mapsToUnicode(font)) problems.push('no ToUnicode map or standard encoding');
  return problems;
}

export function checkFontsEmbedded(doc: PDFDocument): Outcome {
  const { fonts, broken } = pageFonts(doc);
  const failing = fonts.flatMap((font) => {
    const problems = fontProblems(font);
    const name = nameOf(font.get(PDFName.of('BaseFont'))) ?? 'unnamed font';
    return problems.length > 0 ? [`${name}: ${problems.join(', ')}`] : [];
  });
  failing.push(...broken);
  const detail = failing.length > 0 ? listed(failing) : `${fonts.length} fonts`;
  return { count: failing.length, detail };
}
