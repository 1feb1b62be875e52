import { type MergeRequest, markMergedPages, mergePdfs, planMerge } from '../merge.js';
import { assertMergedSize, lookUpMerge, MergeInspection, mergedPages } from '../merge-sources.js';
import type { FinishingStep } from '../step.js';

/**
 * `prepend`/`append` (docs/pdf-output.md "Merging"): sources looked up before rendering (a wrong id costs no render),
 * checked by qpdf beside the render, merged by qpdf on the rendered bytes before any other step (they
 * all see the merged pages); the test mark goes on merged pages that lack it.
 */
export const merge: FinishingStep<'merge', MergeRequest, MergeInspection> = {
  key: 'merge',
  fields: ['prepend', 'append'],
  plan: ({ options }) => planMerge(options.prepend, options.append),
  resolve: async (planned, scope) =>
    new MergeInspection(
      await lookUpMerge(scope.storedPdfs, planned, {
        teamId: scope.teamId,
        test: scope.test,
        watermark: scope.watermark,
      }),
    ),
  beside: (inspection) => inspection,
  pages: async (rendered, inspection) => mergedPages(rendered, await inspection.done()),
  source: async (pdf, inspection) => {
    const merged = await mergePdfs(pdf, await inspection.done());
    assertMergedSize(merged);
    return merged;
  },
  needsDocument: async (inspection) => {
    const sources = await inspection.done();
    return [...sources.prepend, ...sources.append].some((s) => s.marked);
  },
  document: async (doc, inspection) => {
    const { drawTestMark } = await import('../stamp.js');
    await markMergedPages(doc, await inspection.done(), drawTestMark);
  },
};
