import type { AccessibilityReport } from './accessibility/report.js';
import type { SigningKey } from './cms.js';
import type { FinishingPlan } from './plan.js';
import { type ResolvedFinishing, resolveFinishing, type StepTimer } from './resolve.js';

export { type AccessibilityReport, accessibilityHeader } from './accessibility/report.js';
export { AccessibilityReportSchema } from './accessibility/report-schema.js';
export type { SigningKey } from './cms.js';
export type { StoredPdfPort } from './merge-sources.js';
export {
  checkLanguage,
  type FinishingContribution,
  type FinishingPlan,
  finishingOptionsOf,
  mergeFinishing,
  planFinishing,
} from './plan.js';
export { type ResolvedFinishing, resolveFinishing, type StepTimer } from './resolve.js';
export {
  AttachmentBody,
  FinishingFields,
  type FinishingOptions,
  MAX_ATTACHMENTS,
  MAX_MERGE_SOURCES,
  MergeSourceBody,
  PdfALevel,
  PdfMetadataBody,
  ProtectBody,
  type ProtectOption,
  ShownProtectBody,
  SignBody,
  StampBody,
} from './schema.js';
export {
  isShownProtect,
  isStoredProtect,
  openProtect,
  openQueuedProtect,
  type PasswordBox,
  PROTECT_PASSWORDS_PURPOSE,
  type StoredProtect,
  sealProtect,
  sealQueuedProtect,
  showProtect,
} from './sealed-protect.js';

/**
 * A plan finished outside production (the bench, tests): nothing to look up but, when it signs, the key
 * given. Production resolves its plans against the team's documents and certificates (resolveFinishing).
 */
export async function finishPdf(
  pdf: Buffer,
  plan: FinishingPlan,
  context: { createdAt: Date; onStep?: StepTimer; signingKey?: SigningKey },
): Promise<Buffer> {
  const finishing: ResolvedFinishing = await resolveFinishing(plan, {
    teamId: '',
    test: false,
    watermark: false,
    now: context.createdAt,
    storedPdfs: { find: () => Promise.resolve(null) },
    signingKeys: {
      signingKey: () =>
        context.signingKey
          ? Promise.resolve(context.signingKey)
          : Promise.reject(new Error('finishPdf: the plan signs, but no signing key was given')),
    },
  });
  return finishing.finish(pdf, context);
}

/**
 * The machine-checkable PDF/UA-1 conditions of a finished PDF (accessibility/index.ts), for a request that
 * asked for them; pdf-lib and the checks are loaded on the first such request.
 */
export async function reportAccessibility(pdf: Buffer): Promise<AccessibilityReport> {
  const [{ PDFDocument }, { checkAccessibility }] = await Promise.all([
    import('@cantoo/pdf-lib'),
    import('./accessibility/index.js'),
  ]);
  return checkAccessibility(await PDFDocument.load(pdf, { updateMetadata: false }));
}

/**
 * The test-document mark on every page of a PDF Quire did not render (a test key's PDF tools), as merged
 * uploads of a test document get it.
 */
export async function markTestPages(pdf: Buffer): Promise<Buffer> {
  const [{ PDFDocument }, { drawTestMark }, { WATERMARK_TEXT }] = await Promise.all([
    import('@cantoo/pdf-lib'),
    import('./stamp.js'),
    import('../render/index.js'),
  ]);
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  await drawTestMark(
    doc,
    doc.getPages().map((_, i) => i),
    WATERMARK_TEXT,
  );
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
