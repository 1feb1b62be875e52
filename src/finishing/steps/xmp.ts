import type { FinishingStep } from '../step.js';

/** Extra XMP `rdf:Description` blocks a contribution brings (Factur-X's), for the pdf_a or xmp step. */
export interface PlannedXmp {
  extensions: string[];
}

/**
 * The XMP packet of a document that is not PDF/A (PDF/A's is pdf-lib's, written by the pdf_a step): the
 * Info values and any extra descriptions (the PDF/UA identification), so both say the same whichever a
 * reader looks at. Planned whenever there is something to say; written only without PDF/A.
 */
export const xmp: FinishingStep<'xmp', PlannedXmp> = {
  key: 'xmp',
  fields: [],
  plan: ({ contribution }, earlier) => {
    const extensions = contribution?.xmpExtensions ?? [];
    const needed = earlier.pdf_ua || earlier.metadata || extensions.length > 0;
    return needed ? { extensions } : null;
  },
  document: async (doc, planned, { plan }) => {
    if (plan.pdf_a) return;
    const [{ writeXmp }, { PDFUA_DESCRIPTION }] = await Promise.all([
      import('../document-info.js'),
      import('../pdfa.js'),
    ]);
    writeXmp(doc, plan.pdf_ua ? [...planned.extensions, PDFUA_DESCRIPTION] : planned.extensions);
  },
};
