import { PDFDocument } from '@cantoo/pdf-lib';
import { inSpan } from '../telemetry/index.js';
import type { FinishingPlan } from './plan.js';
import type { StepTimer } from './resolve.js';
import type { AnyStep, ApplyContext, ResolvedSteps } from './step.js';
import { STEPS } from './steps/index.js';

/** The planned steps with what each resolved, in STEPS order. */
function planned(steps: ResolvedSteps): Array<[AnyStep, unknown]> {
  return (STEPS as readonly AnyStep[])
    .map((step): [AnyStep, unknown] => [step, steps[step.key as keyof ResolvedSteps]])
    .filter(([, value]) => value !== null);
}

/** One phase of a step, timed for the answer's timings and as a `quire.finishing.<step>` span. */
function timed<T>(onStep: StepTimer | undefined, name: string, work: () => Promise<T> | T): Promise<T> {
  return inSpan(`quire.finishing.${name}`, {}, async () => {
    const t0 = performance.now();
    const value = await work();
    onStep?.(name, performance.now() - t0);
    return value;
  });
}

/** Whether pdf-lib has anything to do: a merge alone (or with protect) stays qpdf's output as it is. */
async function needsDocument(active: Array<[AnyStep, unknown]>): Promise<boolean> {
  for (const [step, value] of active) {
    if (!step.document) continue;
    if (!step.needsDocument || (await step.needsDocument(value))) return true;
  }
  return false;
}

/**
 * Every planned step's phases over the rendered PDF (step.ts): `source` on the bytes, `document` over one
 * parse and one write of the file, `final` on the written bytes. Loaded
 * through resolve.ts only when some step changes the file, so a plain document never loads pdf-lib here.
 */
export async function applySteps(
  pdf: Buffer,
  plan: FinishingPlan,
  steps: ResolvedSteps,
  options: { createdAt: Date; onStep?: StepTimer },
): Promise<Buffer> {
  const active = planned(steps);
  const { onStep } = options;
  let out = pdf;
  for (const [step, value] of active)
    if (step.source) out = await timed(onStep, step.key, () => step.source?.(out, value) ?? out);
  if (await needsDocument(active)) {
    const source = out;
    const doc = await timed(onStep, 'parse', () => PDFDocument.load(source, { updateMetadata: false }));
    const context: ApplyContext = { createdAt: options.createdAt, plan };
    for (const [step, value] of active)
      if (step.document) await timed(onStep, step.key, () => step.document?.(doc, value, context));
    out = await timed(onStep, 'save', async () => Buffer.from(await doc.save({ useObjectStreams: false })));
  }
  for (const [step, value] of active)
    if (step.final) out = await timed(onStep, step.key, () => step.final?.(out, value) ?? out);
  return out;
}
