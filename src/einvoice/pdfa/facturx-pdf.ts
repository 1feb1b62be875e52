import { buildFacturXDescription, FACTUR_X_EXTENSION_SCHEMA } from '@cantoo/pdf-lib';
import { facturXXmp, type PdfProfile } from './conformance.js';

export interface FacturXPdfOptions {
  profile: PdfProfile;
  /** `xrechnung.xml` for the ZUGFeRD xrechnung profile, else `factur-x.xml` (SPEC "E-invoices", Result). */
  attachmentName: 'factur-x.xml' | 'xrechnung.xml';
  title: string;
  /** The seller's name: Info /Author and XMP dc:creator. */
  author: string;
  invoiceNumber: string;
}

const PRODUCER = 'Quire';

/**
 * Factur-X's part of a document's finishing, in the shape of finishing's FinishingContribution: spelt out
 * here because einvoice/ stands on shared/ alone (production hands it to finishing).
 */
interface FacturXContribution {
  pdfA: '3b';
  metadata: { title: string; author: string; subject: string; keywords: string[]; creator: string };
  xmpExtensions: string[];
  attachments: {
    filename: string;
    bytes: Uint8Array;
    mimeType: string;
    description: string;
    relationship: 'Data' | 'Alternative';
  }[];
}

/**
 * What a Factur-X/ZUGFeRD invoice adds to the finishing pipeline (src/finishing): PDF/A-3b, the fx
 * extension schema in the XMP, the XML as an associated file, and Info values a request's
 * `pdf_metadata` may override (SPEC "E-invoices", Result; Versioning: PDF/A-3b). The conversion itself
 * is the one PDF/A step every `pdf_a` document goes through.
 */
export function facturXFinishing(xml: string, opts: FacturXPdfOptions): FacturXContribution {
  const fx = facturXXmp(opts.profile);
  return {
    pdfA: '3b',
    metadata: {
      title: opts.title,
      author: opts.author,
      subject: `Invoice ${opts.invoiceNumber}`,
      keywords: ['invoice', opts.invoiceNumber, opts.profile],
      creator: PRODUCER,
    },
    xmpExtensions: [
      buildFacturXDescription({
        fileName: opts.attachmentName,
        version: fx.version,
        documentType: 'INVOICE',
        conformanceLevel: fx.conformanceLevel,
      }),
      FACTUR_X_EXTENSION_SCHEMA,
    ],
    attachments: [
      {
        filename: opts.attachmentName,
        bytes: new Uint8Array(Buffer.from(xml, 'utf8')),
        mimeType: 'text/xml',
        description: `Invoice ${opts.invoiceNumber} (${fx.conformanceLevel})`,
        relationship: fx.afRelationship as 'Data' | 'Alternative',
      },
    ],
  };
}
