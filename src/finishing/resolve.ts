import { type FinishingPlan, finishesNothing } from './plan.js';
import type { BesideCheck, ResolvedSteps, ResolveScope } from './step.js';
import { STEPS } from './steps/index.js';

/** Told each phase's and step's time (the benchmark); `parse`, `save` are pdf-lib's load and write. */
export type StepTimer = (step: string, ms: number) => void;

/**
 * A plan with what its steps need from outside, looked up for one team before rendering: the one
 * finishing value production carries from `resolve` to `finish`.
 */
export interface ResolvedFinishing {
  readonly plan: FinishingPlan;
  /** A check beside the render refused its input: the error is the request's, found before any output. */
  readonly inputRefused: boolean;
  /** Waits for the checks that run beside the render (a queued document's sources, before it turns processing). */
  ready(): Promise<void>;
  /** The render with the checks beside it: a refused input aborts it, and its refusal is the answer. */
  alongside<T>(render: (signal: AbortSignal | undefined) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** The finished document's page count (merged pages added). */
  pages(rendered: number): Promise<number>;
  /** Applies every planned step to the rendered PDF (pipeline.ts, loaded only when a step changes the file). */
  finish(pdf: Buffer, context: { createdAt: Date; onStep?: StepTimer }): Promise<Buffer>;
}

/** Each planned step's `resolve`, in STEPS order (a wrong merge source before a certificate lookup). */
export async function resolveFinishing(plan: FinishingPlan, scope: ResolveScope): Promise<ResolvedFinishing> {
  const resolved: Partial<Record<string, unknown>> = {};
  const checks: BesideCheck[] = [];
  for (const step of STEPS) {
    const planned = plan[step.key];
    if (planned === null) {
      resolved[step.key] = null;
      continue;
    }
    // biome-ignore lint/suspicious/noExplicitAny: each step resolves its own plan's type.
    const value = step.resolve ? await step.resolve(planned as any, scope) : planned;
    resolved[step.key] = value;
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    const check = 'beside' in step && step.beside ? step.beside(value as any) : null;
    if (check) checks.push(check);
  }
  return finishingOf(plan, resolved as ResolvedSteps, checks);
}

function finishingOf(plan: FinishingPlan, steps: ResolvedSteps, checks: BesideCheck[]): ResolvedFinishing {
  const allDone = () => Promise.all(checks.map((check) => check.done())).then(() => undefined);
  return {
    plan,
    get inputRefused() {
      return checks.some((check) => check.failed);
    },
    ready: allDone,
    alongside: async (render, signal) => {
      if (checks.length === 0) return render(signal);
      const signals = [...(signal ? [signal] : []), ...checks.map((check) => check.signal)];
      try {
        const value = await render(AbortSignal.any(signals));
        await allDone();
        return value;
      } catch (err) {
        // The input's refusal wins over the render's own error (a render aborted for it).
        const refused = checks.find((check) => check.failed);
        if (refused) await refused.done();
        throw err;
      }
    },
    pages: async (rendered) => {
      let pages = rendered;
      for (const step of STEPS) {
        const value = steps[step.key];
        // biome-ignore lint/suspicious/noExplicitAny: each step reads its own resolved type.
        if (value !== null && 'pages' in step && step.pages) pages = await step.pages(pages, value as any);
      }
      return pages;
    },
    finish: async (pdf, context) => {
      if (finishesNothing(plan)) return pdf;
      const { applySteps } = await import('./pipeline.js');
      return applySteps(pdf, plan, steps, context);
    },
  };
}
