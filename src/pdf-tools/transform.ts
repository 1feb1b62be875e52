import {
  type FinishingOptions,
  markTestPages,
  planFinishing,
  resolveFinishing,
  type SigningKey,
  type StoredPdfPort,
} from '../finishing/index.js';
import { MAX_PAGES, MAX_PDF_BYTES } from '../render/index.js';
import { AppError, isAppError } from '../shared/errors.js';
import { overLimits } from '../shared/memory-limit.js';
import { fillForm, flattenForm } from './forms.js';
import { keepPages, rotatePages, selectPages } from './pages.js';
import type { TransformStep } from './schema.js';
import { type OpenedSource, plainCopy } from './source.js';
import { type ToolBudget, ToolFailed } from './tools.js';

/** Where steps look things up: the team's documents (merge) and certificates (sign). */
export interface TransformScope {
  teamId: string;
  test: boolean;
  now: Date;
  storedPdfs: StoredPdfPort;
  signingKeys: { signingKey(teamId: string, certificateId: string, at: Date): Promise<SigningKey> };
}

export interface Transformed {
  pdf: Buffer;
  pages: number;
  signed: boolean;
}

interface Current {
  pdf: Buffer;
  pages: number;
}

const LAST_ONLY = new Set(['protect', 'sign']);

/**
 * The order rules a schema cannot say, before anything is counted: `protect` and `sign` change the file so
 * that no later step can (an encrypted file cannot be read on, a signed one must not change), and PDF/A
 * forbids encryption.
 */
export function checkStepOrder(steps: readonly TransformStep[]): void {
  steps.forEach((step, i) => {
    if (LAST_ONLY.has(step.op) && i !== steps.length - 1)
      throw new AppError(
        'invalid_request',
        `"${step.op}" must be the last step: nothing can change the file after it (steps[${i}] is followed by "${steps[i + 1]?.op}").`,
        { field: `steps[${i}].op` },
      );
    if (step.op === 'protect' && steps.slice(0, i).some((s) => s.op === 'pdf_a'))
      throw new AppError('invalid_request', '"protect" cannot follow "pdf_a": PDF/A forbids encryption.', {
        field: `steps[${i}].op`,
      });
    if (step.op === 'merge' && !step.prepend && !step.append)
      throw new AppError('invalid_request', `steps[${i}]: "merge" needs "prepend" or "append".`, {
        field: `steps[${i}]`,
      });
  });
}

/** The POST /v1/pdf finishing field a step stands for, and how its fields are named in a refusal. */
function finishingOf(
  step: TransformStep,
): { options: FinishingOptions; rename(field: string): string } | null {
  const strip = (name: string) => (field: string) => field.replace(new RegExp(`^${name}\\.?`), '');
  switch (step.op) {
    case 'merge':
      return {
        options: {
          ...(step.prepend ? { prepend: step.prepend } : {}),
          ...(step.append ? { append: step.append } : {}),
        },
        rename: (f) => f,
      };
    case 'stamp': {
      const { op: _op, ...stamp } = step;
      return { options: { stamp }, rename: strip('stamp') };
    }
    case 'metadata': {
      const { op: _op, ...pdf_metadata } = step;
      return { options: { pdf_metadata }, rename: strip('pdf_metadata') };
    }
    case 'attach':
      return { options: { attachments: step.attachments }, rename: (f) => f };
    case 'pdf_a':
      return { options: { pdf_a: step.level }, rename: (f) => f.replace(/^pdf_a/, 'level') };
    case 'protect': {
      const { op: _op, ...protect } = step;
      return { options: { protect }, rename: strip('protect') };
    }
    case 'sign': {
      const { op: _op, ...sign } = step;
      return { options: { sign }, rename: strip('sign') };
    }
    default:
      return null;
  }
}

/** A refusal of a step's own input, its field named under `steps[i]`. */
function underStep(err: unknown, index: number, step: TransformStep, rename: (f: string) => string): unknown {
  if (!isAppError(err)) return err;
  const prefix = `steps[${index}]`;
  const field = typeof err.details?.field === 'string' ? rename(err.details.field) : '';
  const named = field === '' ? prefix : `${prefix}.${field}`;
  // The caller's file cannot be made PDF/A: say why, as the caller's to fix.
  const code = step.op === 'pdf_a' && err.code === 'render_failed' ? 'invalid_request' : err.code;
  return new AppError(code, err.message, { ...err.details, field: named });
}

/** A finishing step of POST /v1/pdf over the current file: planned, resolved and applied as there. */
async function finishingStep(
  current: Current,
  step: TransformStep,
  index: number,
  scope: TransformScope,
): Promise<Current> {
  const finishing = finishingOf(step);
  if (!finishing) throw new Error(`no finishing step for ${step.op}`);
  try {
    const plan = planFinishing(finishing.options);
    const resolved = await resolveFinishing(plan, {
      teamId: scope.teamId,
      test: scope.test,
      watermark: scope.test,
      now: scope.now,
      storedPdfs: scope.storedPdfs,
      signingKeys: scope.signingKeys,
    });
    await resolved.ready();
    const pages = await resolved.pages(current.pages);
    return { pdf: await resolved.finish(current.pdf, { createdAt: scope.now }), pages };
  } catch (err) {
    throw underStep(err, index, step, finishing.rename);
  }
}

/** One step over the current file. */
async function applyStep(
  current: Current,
  step: TransformStep,
  index: number,
  scope: TransformScope,
  budget: ToolBudget,
) {
  const field = `steps[${index}]`;
  switch (step.op) {
    case 'pages': {
      const pages = selectPages(step.select, current.pages, `${field}.select`);
      return { pdf: await keepPages(current.pdf, pages, budget), pages: pages.length };
    }
    case 'rotate': {
      const pages =
        step.pages === 'all' ? null : [...new Set(selectPages(step.pages, current.pages, `${field}.pages`))];
      return {
        pdf: await rotatePages(current.pdf, pages, step.degrees, budget),
        pages: current.pages,
      };
    }
    case 'fill':
      return { pdf: await fillForm(current.pdf, step.fields, `${field}.fields`), pages: current.pages };
    case 'flatten':
      return { pdf: await flattenForm(current.pdf, field), pages: current.pages };
    default:
      return finishingStep(current, step, index, scope);
  }
}

/**
 * A program or library tripping over the caller's file while applying a step (qpdf refusing it or running
 * out of its budget, pdf-lib failing to read its form) is the file's fault, not the server's: said as such,
 * naming the step.
 */
function stepFailure(err: unknown, index: number, step: TransformStep, budget: ToolBudget): unknown {
  if (isAppError(err)) return err;
  if (err instanceof ToolFailed && err.failure.overBudget)
    return new AppError(
      'invalid_request',
      `${overLimits(`steps[${index}] ("${step.op}")`, budget.writeMs)} on this PDF: send a simpler PDF.`,
      { field: `steps[${index}]` },
    );
  const reason =
    err instanceof ToolFailed ? '' : ` (${String((err as Error)?.message ?? err).slice(0, 200)})`;
  return new AppError(
    'invalid_request',
    `steps[${index}] ("${step.op}") could not be applied to this PDF${reason}: check that the file is not damaged.`,
    { field: `steps[${index}]` },
  );
}

function checkLimits(current: Current, index: number): void {
  const field = `steps[${index}]`;
  if (current.pages > MAX_PAGES)
    throw new AppError(
      'document_too_large',
      `After "${field}" the PDF has ${current.pages} pages, over the limit of ${MAX_PAGES} per document.`,
      { field },
    );
  if (current.pdf.length > MAX_PDF_BYTES)
    throw new AppError(
      'document_too_large',
      `After "${field}" the PDF is over ${MAX_PDF_BYTES / 1024 / 1024} MB.`,
      { field },
    );
}

/**
 * The steps in order over the source (POST /v1/pdf/transform). A test key's result carries the test mark
 * (a stored test document has it already), as every test document does.
 */
export async function runSteps(
  source: OpenedSource,
  steps: readonly TransformStep[],
  scope: TransformScope,
): Promise<Transformed> {
  const plain = await plainCopy(source);
  let current: Current = {
    pdf: scope.test && !source.marked ? await markTestPages(plain) : plain,
    pages: source.pages,
  };
  for (const [index, step] of steps.entries()) {
    try {
      current = await applyStep(current, step, index, scope, source.budget);
    } catch (err) {
      throw stepFailure(err, index, step, source.budget);
    }
    checkLimits(current, index);
  }
  return { ...current, signed: steps.some((s) => s.op === 'sign') };
}
