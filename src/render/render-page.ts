import { AppError, isAppError } from '../shared/errors.js';
import type { Warning } from '../shared/warnings.js';
import { inPagePort, loadDocument } from './in-page.js';
import { toPrintToPdfParams } from './paper.js';
import type { PoolSlot } from './pool-slot.js';
import { printToPdf } from './print-to-pdf.js';
import type { ModeStrategy, RenderJob } from './types.js';
import { watermarkParams } from './watermark.js';

export interface PageWork {
  pdf: Buffer;
  warnings: Warning[];
  timings: { loadMs: number; analyzeMs: number; pdfMs: number };
}

/** The in-page part of a render: prepare the page → load → wait for fonts/images → analyze → print. */
export async function renderInPage(
  slot: PoolSlot,
  job: RenderJob,
  strategy: ModeStrategy,
): Promise<PageWork> {
  const t0 = performance.now();
  // No own timeout: the render deadline (renderWithDeadline) governs, even for `while(true){}`.
  const html = strategy.prepareHtml(job);
  await strategy.beforeLoad?.(inPagePort(slot), job);
  await loadDocument(slot, html);
  const t1 = performance.now();
  const { warnings } = await strategy.analyze(inPagePort(slot), job);
  const t2 = performance.now();
  const params = toPrintToPdfParams(strategy.pdfOptions(job));
  // Test documents: Chromium prints the mark on every page itself (watermark.ts).
  const pdf = await printToPdf(slot.cdp, job.watermark ? { ...params, ...watermarkParams(params) } : params, {
    tagged: job.tagged === true,
    outline: job.outline === true,
  });
  const t3 = performance.now();
  return { pdf, warnings, timings: { loadMs: t1 - t0, analyzeMs: t2 - t1, pdfMs: t3 - t2 } };
}

export interface DeadlineOutcome<T> {
  value?: T;
  error?: unknown;
  /** The page is in an unknown state (timeout, crash, abort, unexpected error) and must be replaced. */
  discard: boolean;
}

export function crashed(): AppError {
  return new AppError('render_failed', 'The document crashed the renderer.');
}

/**
 * Races the page work against the render time limit (spec: 30 s → render_timeout, even for a
 * `while(true){}` that never yields), a crash of the page (→ render_failed) and the caller going away.
 */
export async function renderWithDeadline<T>(
  slot: PoolSlot,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  work: () => Promise<T>,
): Promise<DeadlineOutcome<T>> {
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: () => void = () => undefined;
  let onAbort: () => void = () => undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AppError('render_timeout', `Rendering took longer than ${timeoutMs / 1000} seconds.`)),
      timeoutMs,
    );
    unsubscribe = slot.onBreak(() => reject(crashed()));
    onAbort = () => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort(); // aborted while the page was being acquired
  });
  const running = work();
  running.catch(() => undefined); // it may fail after the race was decided
  try {
    return { value: await Promise.race([running, stop]), discard: false };
  } catch (err) {
    if (slot.broken) return { error: crashed(), discard: true };
    // Limits found in a healthy page (too many pages, content_lost) leave the page reusable.
    const expected = isAppError(err) && err.code !== 'render_timeout' && err.code !== 'render_failed';
    return { error: err, discard: !expected };
  } finally {
    clearTimeout(timer);
    unsubscribe();
    signal?.removeEventListener('abort', onAbort);
  }
}
