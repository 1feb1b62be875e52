import { AppError } from '../../shared/errors.js';
import { markUntaggedAsArtifacts } from '../accessibility/artifacts.js';
import type { PdfALevelName } from '../schema.js';
import type { FinishingStep, PlanInput } from '../step.js';

/** The PDF/A level asked for: the request's, else a contribution's (an e-invoice is PDF/A-3). */
export function pdfALevelOf({ options, contribution }: PlanInput): PdfALevelName | null {
  return options.pdf_a ?? contribution?.pdfA ?? null;
}

/**
 * `pdf_a` (and every Factur-X/ZUGFeRD e-invoice): the last change to the content (it fixes the XMP to the
 * final Info), then the written file is checked by the structural checker: a file that cannot be made
 * conformant fails with the cause named rather than being sent as PDF/A.
 */
export const pdfA: FinishingStep<'pdf_a', PdfALevelName> = {
  key: 'pdf_a',
  fields: ['pdf_a'],
  plan: (input, earlier) => {
    const { options, contribution } = input;
    if (contribution && options.pdf_a !== undefined && !options.pdf_a.startsWith('3'))
      throw new AppError(
        'invalid_request',
        `An e-invoice PDF is PDF/A-3 (its XML is an embedded file): use "pdf_a": "3b", "3u" or "3a", not "${options.pdf_a}".`,
        { field: 'pdf_a' },
      );
    const level = pdfALevelOf(input);
    if (level && isLevelA(level)) refuseUntaggedLevelA(level, options.tagged, earlier.merge !== null);
    return level;
  },
  document: async (doc, level, { createdAt, plan }) => {
    const { convertToPdfA, withPdfUaExtension } = await import('../pdfa.js');
    // PDF/A §6.6.2.3: Info dates mirrored in the XMP (pdf-lib writes both from these).
    doc.setCreationDate(createdAt);
    doc.setModificationDate(createdAt);
    const extensions = plan.xmp?.extensions ?? [];
    convertToPdfA(doc, level, plan.pdf_ua ? withPdfUaExtension(extensions) : extensions);
    // Level A is tagged PDF in full: decoration is an artifact (a no-op after the pdf_ua step did it).
    if (isLevelA(level)) markUntaggedAsArtifacts(doc);
  },
  // After the file is written, before protect or a signature: level A's identification, then the check.
  final: async (pdf, level) => {
    const [{ PDFDocument }, { checkPdfA }, { markConformanceA }] = await Promise.all([
      import('@cantoo/pdf-lib'),
      import('../pdfa-check.js'),
      import('../pdfa.js'),
    ]);
    const out = isLevelA(level) ? markConformanceA(pdf) : pdf;
    const problems = checkPdfA(await PDFDocument.load(out, { updateMetadata: false }), level);
    if (problems.length > 0)
      throw new AppError(
        'render_failed',
        `The PDF cannot be made PDF/A-${level}: ${problems.slice(0, 5).join('; ')}.`,
        { field: 'pdf_a', problems: problems.slice(0, 20) },
      );
    return out;
  },
};

/** Level A (accessible): PDF/A-2a or 3a. */
export function isLevelA(level: PdfALevelName): boolean {
  return level.endsWith('a');
}

/** Level A is a tagged, logically structured file: merged pages carry no tags, and tagged: false has none. */
function refuseUntaggedLevelA(level: PdfALevelName, tagged: boolean | undefined, merges: boolean): void {
  if (tagged === false)
    throw new AppError('invalid_request', `PDF/A-${level} needs a tagged PDF: drop "tagged": false.`, {
      field: 'tagged',
    });
  if (merges)
    throw new AppError(
      'invalid_request',
      `PDF/A-${level} cannot be used with "prepend" or "append": the merged pages are not tagged. Use "${level[0]}u".`,
      { field: 'pdf_a' },
    );
}
