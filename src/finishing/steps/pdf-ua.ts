import { AppError } from '../../shared/errors.js';
import { markUntaggedAsArtifacts } from '../accessibility/artifacts.js';
import type { FinishingStep } from '../step.js';

/** PDF/UA-1's identification is asked for (the document is tagged; the XMP steps add `pdfuaid`). */
export interface PlannedPdfUa {
  part: 1;
}

/**
 * `pdf_ua` (or an accessible contribution: the built-in invoice template): the title shown in the window's
 * title bar (PDF/UA §7.1), decoration outside the tags marked as artifacts (Matterhorn 01-005); the pdf_a or
 * xmp step writes the identification, and the document is tagged.
 */
export const pdfUa: FinishingStep<'pdf_ua', PlannedPdfUa> = {
  key: 'pdf_ua',
  fields: ['pdf_ua'],
  plan: ({ options, contribution }, earlier) => {
    // Merged pages carry no tags (qpdf keeps the rendered file's structure tree only): not PDF/UA.
    if (earlier.merge && options.pdf_ua === true)
      throw new AppError(
        'invalid_request',
        '"pdf_ua" cannot be used with "prepend" or "append": the merged pages are not tagged.',
        { field: 'pdf_ua' },
      );
    const wanted =
      options.pdf_ua ?? (contribution?.accessible === true && options.tagged !== false && !earlier.merge);
    if (wanted && options.tagged === false)
      throw new AppError('invalid_request', '"pdf_ua" needs a tagged PDF: drop "tagged": false.', {
        field: 'tagged',
      });
    return wanted ? { part: 1 } : null;
  },
  document: (doc) => {
    doc.setTitle(doc.getTitle() ?? 'document', { showInWindowTitleBar: true });
    markUntaggedAsArtifacts(doc);
  },
};
