import { AppError } from '../shared/errors.js';
import { FinishingFields, type FinishingOptions } from './schema.js';
import type { FinishingContribution, PlannedSteps } from './step.js';
import { STEPS } from './steps/index.js';

export type { FinishingContribution } from './step.js';

/**
 * Every PDF is tagged unless the request (or its template) says `tagged: false`: a structure tree from the
 * HTML for screen readers (the European Accessibility Act asks accessible documents of most businesses that
 * sell to consumers). Measured on the bench invoice it costs about 1.17× the untagged render
 * (docs/pdf-output.md "Tagged by default"); template thumbnails, pictures only, are never tagged.
 */
export const TAGGED_BY_DEFAULT = true;

/**
 * The finishing of one document, chosen once from the request before anything is rendered: what each step
 * of STEPS planned (null: nothing to do), and how Chromium writes the structure (render options).
 */
export type FinishingPlan = PlannedSteps & {
  /** Chromium writes a structure tree (tags). */
  tagged: boolean;
  /** Chromium writes bookmarks from the headings (needs the tags). */
  outline: boolean;
};

/**
 * The request's finishing options (request values over the template's) checked together: every step plans
 * its part in STEPS order, refusing what cannot go together with the field to change, before rendering.
 */
export function planFinishing(
  options: FinishingOptions,
  contribution: FinishingContribution | null = null,
): FinishingPlan {
  const planned: Partial<Record<string, unknown>> = {};
  for (const step of STEPS) planned[step.key] = step.plan({ options, contribution }, planned) ?? null;
  const steps = planned as PlannedSteps;
  if (options.outline === true && options.tagged === false)
    throw new AppError(
      'invalid_request',
      '"outline" is built from the tags (Chromium makes bookmarks from the structure tree): drop "tagged": false.',
      { field: 'outline' },
    );
  return {
    ...steps,
    // pdf_ua, outline and PDF/A level A need the tags whatever the default.
    tagged:
      options.tagged ??
      (TAGGED_BY_DEFAULT ||
        steps.pdf_ua !== null ||
        options.outline === true ||
        steps.pdf_a?.endsWith('a') === true),
    outline: options.outline === true,
  };
}

/**
 * PDF/UA needs a natural language; it is known only once the HTML is (a template's Liquid output), so
 * this runs after preparation and still before rendering.
 */
export function checkLanguage(plan: FinishingPlan, htmlLanguage: string | null): void {
  if (plan.pdf_ua && !plan.metadata?.language && !htmlLanguage)
    throw new AppError(
      'invalid_request',
      '"pdf_ua" needs the document\'s language: add <html lang="…"> or "pdf_metadata": { "language": "…" }.',
      { field: 'pdf_ua' },
    );
}

/** True when the file leaves Chromium unchanged by finishing (the hot path stays as it was). */
export function finishesNothing(plan: FinishingPlan): boolean {
  return STEPS.every((step) => plan[step.key] === null);
}

/** Every finishing field of a request, in the API's order (the steps' fields and the structure's). */
const FINISHING_KEYS = Object.keys(FinishingFields) as (keyof FinishingOptions)[];

/** The finishing fields of a request, batch or template settings object (nothing else). */
export function finishingOptionsOf(source: FinishingOptions): FinishingOptions {
  const out: Record<string, unknown> = {};
  for (const key of FINISHING_KEYS) if (source[key] !== undefined) out[key] = source[key];
  return out as FinishingOptions;
}

/**
 * A template's finishing settings under the request's: a field the request sends replaces the
 * template's, except `pdf_metadata`, merged key by key (the request's title over the template's author).
 */
export function mergeFinishing(template: FinishingOptions, request: FinishingOptions): FinishingOptions {
  const merged = { ...finishingOptionsOf(template), ...finishingOptionsOf(request) };
  if (template.pdf_metadata && request.pdf_metadata)
    merged.pdf_metadata = { ...template.pdf_metadata, ...request.pdf_metadata };
  return merged;
}
