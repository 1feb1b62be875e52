import { PDFArray, PDFDict, type PDFDocument, PDFName, PDFNumber } from '@cantoo/pdf-lib';
import { srgbProfile } from './icc.js';
import type { PdfALevelName } from './schema.js';

/** Annotation flag bit 3 (Print): PDF/A-2/3 §6.3.2 want it set and Hidden/Invisible/NoView cleared. */
const PRINT_FLAG = 4;

/**
 * The one PDF/A conversion (every `pdf_a` document and every Factur-X/ZUGFeRD e-invoice): XMP with
 * `pdfaid` part/conformance mirroring the Info dictionary (pdf-lib keeps them in sync on save), an sRGB
 * OutputIntent, trailer /ID, and printable annotations. What Chromium's content may still break (fonts,
 * JavaScript) is checked afterwards by `checkPdfA` rather than assumed.
 */
export function convertToPdfA(doc: PDFDocument, level: PdfALevelName, xmpExtensions: string[]): void {
  markAnnotationsPrintable(doc);
  doc.convertToPDFA({
    // pdf-lib offers no level A (it cannot know a file is tagged): level A is converted as U, which it
    // includes (Unicode), and identified as A once written (markConformanceA); checkPdfA checks the rest.
    conformance: level.replace('a', 'u').toUpperCase() as '2B' | '2U' | '3B' | '3U',
    iccProfile: srgbProfile(),
    outputConditionIdentifier: 'sRGB IEC61966-2.1',
    colorComponents: 3,
    extensions: xmpExtensions,
  });
}

/** Chromium writes link annotations without /F; PDF/A-2/3 §6.3.2 require the Print flag on every one. */
function markAnnotationsPrintable(doc: PDFDocument): void {
  for (const page of doc.getPages()) {
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    if (!annots) continue;
    for (let i = 0; i < annots.size(); i++) {
      const annot = annots.lookupMaybe(i, PDFDict);
      annot?.set(PDFName.of('F'), PDFNumber.of(PRINT_FLAG));
    }
  }
}

const PDFUA_NS = 'http://www.aiim.org/pdfua/ns/id/';

/** The PDF/UA identification (ISO 14289-1 §5): `pdfuaid:part` 1 in the XMP. */
export const PDFUA_DESCRIPTION = `<rdf:Description rdf:about="" xmlns:pdfuaid="${PDFUA_NS}"><pdfuaid:part>1</pdfuaid:part></rdf:Description>`;

/** PDF/A allows only declared XMP schemas: the pdfuaid one, as a pdfaExtension schema entry. */
const PDFUA_SCHEMA_ENTRY =
  '<rdf:li rdf:parseType="Resource"><pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>' +
  `<pdfaSchema:namespaceURI>${PDFUA_NS}</pdfaSchema:namespaceURI><pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>` +
  '<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource"><pdfaProperty:name>part</pdfaProperty:name>' +
  '<pdfaProperty:valueType>Integer</pdfaProperty:valueType><pdfaProperty:category>internal</pdfaProperty:category>' +
  '<pdfaProperty:description>Indicates, which part of ISO 14289 standard is followed</pdfaProperty:description>' +
  '</rdf:li></rdf:Seq></pdfaSchema:property></rdf:li>';

const EXTENSION_BLOCK =
  '<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" ' +
  'xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">' +
  '<pdfaExtension:schemas><rdf:Bag></rdf:Bag></pdfaExtension:schemas></rdf:Description>';

/**
 * XMP blocks for a PDF/A document that is also PDF/UA: the identification plus its schema declared in
 * the one pdfaExtension block (a second block would repeat the `pdfaExtension:schemas` property).
 */
export function withPdfUaExtension(extensions: string[]): string[] {
  const at = extensions.findIndex((e) => e.includes('<pdfaExtension:schemas><rdf:Bag>'));
  const declared = [...extensions];
  if (at === -1) declared.push(EXTENSION_BLOCK.replace('<rdf:Bag>', `<rdf:Bag>${PDFUA_SCHEMA_ENTRY}`));
  else declared[at] = declared[at]!.replace('<rdf:Bag>', `<rdf:Bag>${PDFUA_SCHEMA_ENTRY}`);
  return [...declared, PDFUA_DESCRIPTION];
}

const CONFORMANCE_U = Buffer.from('<pdfaid:conformance>U</pdfaid:conformance>', 'latin1');
const CONFORMANCE_A = Buffer.from('<pdfaid:conformance>A</pdfaid:conformance>', 'latin1');

/**
 * A written PDF/A-2u/3u file identified as level A: pdf-lib writes its XMP as an unfiltered stream, and the
 * one-letter change keeps every byte offset, so the file needs no rewrite.
 */
export function markConformanceA(pdf: Buffer): Buffer {
  const at = pdf.indexOf(CONFORMANCE_U);
  if (at < 0 || pdf.indexOf(CONFORMANCE_U, at + 1) >= 0)
    throw new Error('markConformanceA: expected exactly one pdfaid:conformance U in the written XMP');
  const out = Buffer.from(pdf);
  CONFORMANCE_A.copy(out, at);
  return out;
}
