import type { PdfMetadataOptions } from '../schema.js';
import type { FinishingStep } from '../step.js';

/**
 * `pdf_metadata` (over a contribution's defaults, e.g. an e-invoice's title) into the Info dictionary and
 * catalog /Lang. A PDF/A file's XMP mirrors them on save; otherwise the xmp step writes the same values.
 */
export const metadata: FinishingStep<'metadata', PdfMetadataOptions> = {
  key: 'metadata',
  fields: ['pdf_metadata'],
  plan: ({ options, contribution }) => {
    const merged = { ...contribution?.metadata, ...options.pdf_metadata };
    return Object.keys(merged).length > 0 ? merged : null;
  },
  document: async (doc, planned) => {
    const { writeDocumentInfo } = await import('../document-info.js');
    writeDocumentInfo(doc, planned);
  },
};
