import {
  buildFacturXDescription,
  FACTUR_X_EXTENSION_SCHEMA,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
} from '@cantoo/pdf-lib';
import { facturXXmp, type PdfProfile } from './conformance.js';
import { srgbProfile } from './icc.js';

export interface FacturXPdfOptions {
  profile: PdfProfile;
  /** `xrechnung.xml` for the ZUGFeRD xrechnung profile, else `factur-x.xml` (SPEC "E-invoices", Result). */
  attachmentName: 'factur-x.xml' | 'xrechnung.xml';
  title: string;
  /** The seller's name: Info /Author and XMP dc:creator. */
  author: string;
  invoiceNumber: string;
  createdAt: Date;
}

const PRODUCER = 'Quire';
/** Annotation flag bit 3 (Print): PDF/A-3 6.3.2 wants it set and Hidden/Invisible/NoView cleared. */
const PRINT_FLAG = 4;

/**
 * Turns a Chromium PDF into a Factur-X/ZUGFeRD PDF/A-3b: XMP with pdfaid 3/B and the fx extension
 * schema, an sRGB OutputIntent, trailer /ID, Info and XMP in sync, and the XML as an associated file
 * referenced from the catalog /AF (SPEC "E-invoices", Result; Versioning: PDF/A-3b).
 */
export async function toFacturXPdf(pdf: Buffer, xml: string, opts: FacturXPdfOptions): Promise<Buffer> {
  // Chromium never encrypts; loading without ignoreEncryption makes an encrypted input fail loudly.
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  setDocumentInfo(doc, opts);
  markAnnotationsPrintable(doc);
  const fx = facturXXmp(opts.profile);
  doc.convertToPDFA({
    conformance: '3B',
    iccProfile: srgbProfile(),
    outputConditionIdentifier: 'sRGB IEC61966-2.1',
    colorComponents: 3,
    extensions: [
      buildFacturXDescription({
        fileName: opts.attachmentName,
        version: fx.version,
        documentType: 'INVOICE',
        conformanceLevel: fx.conformanceLevel,
      }),
      FACTUR_X_EXTENSION_SCHEMA,
    ],
  });
  await doc.attach(Buffer.from(xml, 'utf8'), opts.attachmentName, {
    mimeType: 'text/xml',
    description: `Invoice ${opts.invoiceNumber} (${fx.conformanceLevel})`,
    afRelationship: fx.afRelationship,
    creationDate: opts.createdAt,
    modificationDate: opts.createdAt,
  });
  return Buffer.from(await doc.save());
}

/** Info dictionary values; pdf-lib mirrors them into the XMP on save (PDF/A: Info and XMP agree). */
function setDocumentInfo(doc: PDFDocument, opts: FacturXPdfOptions): void {
  doc.setTitle(opts.title);
  doc.setAuthor(opts.author);
  doc.setSubject(`Invoice ${opts.invoiceNumber}`);
  doc.setKeywords(['invoice', opts.invoiceNumber, opts.profile]);
  doc.setCreator(PRODUCER);
  doc.setProducer(PRODUCER);
  doc.setCreationDate(opts.createdAt);
  doc.setModificationDate(opts.createdAt);
}

/** Chromium writes link annotations without /F; PDF/A-3 6.3.2 requires the Print flag on every one. */
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
