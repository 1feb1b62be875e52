import { PDFDocument } from '@cantoo/pdf-lib';
import { AppError } from '../shared/errors.js';
import type { SigningKey } from './cms.js';
import { attachFiles, writeDocumentInfo, writeXmp } from './document-info.js';
import { markMergedPages, mergePdfs, type ResolvedMerge } from './merge.js';
import { convertToPdfA, PDFUA_DESCRIPTION, withPdfUaExtension } from './pdfa.js';
import { checkPdfA } from './pdfa-check.js';
import { type FinishingPlan, finishesNothing } from './plan.js';
import { protectPdf } from './protect.js';
import { addSignaturePlaceholder, signPdf } from './signature.js';
import { drawStamp, drawTestMark } from './stamp.js';

export interface FinishingContext {
  /** The document's creation time: Info/XMP dates of a PDF/A file and attachment dates. */
  createdAt: Date;
  /** Told each step's time (the benchmark); `parse`, `save` and `check` are pdf-lib's load, write and the PDF/A check. */
  onStep?: (step: string, ms: number) => void;
  /** The plan's `prepend`/`append` sources, read and checked (production resolves them before rendering). */
  merge?: ResolvedMerge;
  /** The certificate's key and chain when the plan signs (opened for this document only). */
  signingKey?: SigningKey;
}

/** A step over the loaded document (pdf-lib), run in order; the file is parsed and written once for all. */
type DocumentStep = (
  doc: PDFDocument,
  plan: FinishingPlan,
  context: FinishingContext,
) => Promise<void> | void;
/** A step over the finished bytes (another program, or an incremental update that must come last). */
type ByteStep = (pdf: Buffer, plan: FinishingPlan, context: FinishingContext) => Promise<Buffer>;

/*
 * The order (issue 26, ARCHITECTURE "Finishing pipeline"):
 *   1. merge: prepend/append PDFs (merge.ts: qpdf on the bytes, before pdf-lib parses them; they change the
 *      pages, so every later step sees them), then the test mark on merged pages that need it
 *   2. attachments + PDF metadata
 *   3. stamp
 *   4. PDF/A conversion (last change to the content: it fixes the XMP to the final Info)
 *   5. protect, or a signature (always last). The signature's field and dictionary, with room for the
 *      signature, are written with the document after PDF/A (so the PDF/A check sees them); the last byte
 *      step then only fills the byte ranges and the signature in place, changing no structure.
 */
const DOCUMENT_STEPS: Array<[string, DocumentStep]> = [
  // 'merge' itself runs on the bytes before this (qpdf); here the test mark goes on merged pages that need it.
  [
    'test_mark',
    (doc, _plan, context) => (context.merge ? markMergedPages(doc, context.merge, drawTestMark) : undefined),
  ],
  ['metadata', (doc, plan) => writeDocumentInfo(doc, plan.metadata, plan.pdfUa)],
  ['attachments', (doc, plan, context) => attachFiles(doc, plan.attachments, context.createdAt)],
  ['stamp', (doc, plan) => (plan.stamp ? drawStamp(doc, plan.stamp) : undefined)],
  ['pdf_a', applyPdfA],
  ['xmp', (doc, plan) => (plan.pdfA === null && needsXmp(plan) ? writeXmp(doc, xmpExtras(plan)) : undefined)],
  [
    'signature_field',
    (doc, plan, context) =>
      plan.sign ? addSignaturePlaceholder(doc, plan.sign, keyOf(context), context.createdAt) : undefined,
  ],
];

const BYTE_STEPS: Array<[string, ByteStep]> = [
  ['protect', (pdf, plan) => (plan.protect ? protectPdf(pdf, plan.protect) : Promise.resolve(pdf))],
  // Always the last step: nothing may change the file after it is signed.
  ['signature', (pdf, plan, context) => (plan.sign ? signPdf(pdf, keyOf(context)) : Promise.resolve(pdf))],
];

/** Whether pdf-lib has anything to do: a merge alone (or with protect) stays qpdf's output as it is. */
function needsDocumentSteps(plan: FinishingPlan, merge: ResolvedMerge | undefined): boolean {
  const marks = [...(merge?.prepend ?? []), ...(merge?.append ?? [])].some((s) => s.marked);
  return marks || !finishesNothing({ ...plan, merge: null, protect: null });
}

function keyOf(context: FinishingContext): SigningKey {
  if (!context.signingKey) throw new Error('A signing plan reached finishing without its key.');
  return context.signingKey;
}

function needsXmp(plan: FinishingPlan): boolean {
  return plan.pdfUa || Object.keys(plan.metadata).length > 0 || plan.xmpExtensions.length > 0;
}

function xmpExtras(plan: FinishingPlan): string[] {
  return plan.pdfUa ? [...plan.xmpExtensions, PDFUA_DESCRIPTION] : plan.xmpExtensions;
}

function applyPdfA(doc: PDFDocument, plan: FinishingPlan, context: FinishingContext): void {
  if (plan.pdfA === null) return;
  // PDF/A §6.6.2.3: Info dates mirrored in the XMP (pdf-lib writes both from these).
  doc.setCreationDate(context.createdAt);
  doc.setModificationDate(context.createdAt);
  convertToPdfA(doc, plan.pdfA, plan.pdfUa ? withPdfUaExtension(plan.xmpExtensions) : plan.xmpExtensions);
}

/**
 * The finishing of a rendered PDF: the plan's steps in their fixed order. A PDF/A result is checked by
 * the structural checker before it leaves: a file that cannot be made conformant fails with the cause
 * named, rather than being sent as PDF/A. Reached through index.ts, which keeps a plan that finishes
 * nothing from loading this module at all.
 */
export async function finishPdf(
  pdf: Buffer,
  plan: FinishingPlan,
  context: FinishingContext,
): Promise<Buffer> {
  const merge = context.merge;
  if (plan.merge && !merge) throw new Error('finishPdf: the plan merges, but its sources were not resolved');
  const timed = async <T>(name: string, work: () => Promise<T> | T): Promise<T> => {
    const t0 = performance.now();
    const value = await work();
    context.onStep?.(name, performance.now() - t0);
    return value;
  };
  // 1. merge first (qpdf, on the bytes): every later step sees all pages.
  const merged = merge ? await timed('merge', () => mergePdfs(pdf, merge)) : pdf;
  let out = merged;
  if (needsDocumentSteps(plan, merge)) {
    const doc = await timed('parse', () => PDFDocument.load(merged, { updateMetadata: false }));
    for (const [name, step] of DOCUMENT_STEPS) await timed(name, () => step(doc, plan, context));
    out = await timed('save', async () => Buffer.from(await doc.save({ useObjectStreams: false })));
  }
  if (plan.pdfA !== null) {
    const level = plan.pdfA;
    const problems = await timed('check', async () =>
      checkPdfA(await PDFDocument.load(out, { updateMetadata: false }), level),
    );
    if (problems.length > 0)
      throw new AppError(
        'render_failed',
        `The PDF cannot be made PDF/A-${level}: ${problems.slice(0, 5).join('; ')}.`,
        { field: 'pdf_a', problems: problems.slice(0, 20) },
      );
  }
  for (const [name, step] of BYTE_STEPS) out = await timed(name, () => step(out, plan, context));
  return out;
}
