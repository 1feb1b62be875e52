import type { FinishingContext } from './pipeline.js';
import { type FinishingPlan, finishesNothing } from './plan.js';

export type { SigningKey } from './cms.js';
export type { ResolvedMerge } from './merge.js';
export {
  assertMergedSize,
  lookUpMerge,
  MergeInspection,
  mergedPages,
  resolveMerge,
  type StoredPdfPort,
} from './merge-sources.js';
export {
  checkLanguage,
  type FinishingContribution,
  type FinishingPlan,
  finishingOptionsOf,
  mergeFinishing,
  planFinishing,
} from './plan.js';
export {
  FinishingFields,
  type FinishingOptions,
  ProtectBody,
  type ProtectOption,
  ShownProtectBody,
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
export type { FinishingContext };

/**
 * Runs the plan's finishing steps (pipeline.ts). pdf-lib is loaded on the first document that needs
 * it: a plain document leaves Chromium's bytes as they are and costs nothing here.
 */
export async function finishPdf(
  pdf: Buffer,
  plan: FinishingPlan,
  context: FinishingContext,
): Promise<Buffer> {
  if (finishesNothing(plan)) return pdf;
  const pipeline = await import('./pipeline.js');
  return pipeline.finishPdf(pdf, plan, context);
}
