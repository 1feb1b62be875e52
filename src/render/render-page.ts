import { AppError, isAppError } from '../shared/errors.js';
import type { Warning } from '../shared/warnings.js';
import { inSpan } from '../telemetry/index.js';
import { evaluateIsolated, inPagePort, loadDocument } from './in-page.js';
import { waitForPage } from './page-wait.js';
import { toPrintToPdfParams } from './paper.js';
import type { PoolSlot } from './pool-slot.js';
import { printToPdf } from './print-to-pdf.js';
import { fetchSourceDocument } from './source-url.js';
import type { ModeStrategy, RenderJob } from './types.js';
import { watermarkParams } from './watermark.js';

export interface PageWork {
  pdf: Buffer;
  warnings: Warning[];
  /** The page's title, for source_url renders (the filename's default). */
  title?: string;
  timings: { loadMs: number; analyzeMs: number; pdfMs: number };
}

/**
 * The in-page part of a render: prepare the page → load (a source_url is fetched first) → wait for
 * fonts/images → wait_for → analyze → print. `deadline` (performance.now() time) is the render limit's end.
 */
export async function renderInPage(
  slot: PoolSlot,
  job: RenderJob,
  strategy: ModeStrategy,
  deadline: number,
): Promise<PageWork> {
  const t0 = performance.now();
  // Listening starts before the load, so the page's first requests and errors count.
  const watch = slot.watcher.begin();
  try {
    // No own timeout: the render deadline (renderWithDeadline) governs, even for `while(true){}`.
    const source = job.sourceUrl === undefined ? null : await fetchSourceDocument(slot, job.sourceUrl);
    const html = strategy.prepareHtml(source === null ? job : { ...job, html: source });
    await strategy.beforeLoad?.(inPagePort(slot), job);
    await inSpan('quire.chromium.load', {}, () => loadDocument(slot, html));
    if (job.waitFor) {
      // timeout_ms counts from the end of the load (the wait itself).
      const own =
        job.waitFor.timeout_ms === undefined
          ? Number.POSITIVE_INFINITY
          : performance.now() + job.waitFor.timeout_ms;
      // A little before the render limit, so the answer says what was waited for.
      await waitForPage(slot, watch, job.waitFor, Math.min(own, deadline - WAIT_MARGIN_MS));
    }
    const title = source === null ? undefined : await pageTitle(slot);
    const t1 = performance.now();
    const { warnings } = await strategy.analyze(inPagePort(slot), job);
    const t2 = performance.now();
    const params = toPrintToPdfParams(strategy.pdfOptions(job));
    // Test documents: Chromium prints the mark on every page itself (watermark.ts).
    const printed = job.watermark ? { ...params, ...watermarkParams(params) } : params;
    const tags = { tagged: job.tagged === true, outline: job.outline === true };
    const pdf = await inSpan('quire.chromium.print', {}, () => printToPdf(slot.cdp, printed, tags));
    const t3 = performance.now();
    return {
      pdf,
      warnings: [...warnings, ...watch.scriptErrors()],
      ...(title ? { title } : {}),
      timings: { loadMs: t1 - t0, analyzeMs: t2 - t1, pdfMs: t3 - t2 },
    };
  } finally {
    watch.stop();
  }
}

/** How long before the render limit a wait_for gives up (leaves time to answer with what it waited for). */
const WAIT_MARGIN_MS = 250;

async function pageTitle(slot: PoolSlot): Promise<string> {
  const title = await evaluateIsolated(slot, 'document.title');
  return typeof title === 'string' ? title.trim() : '';
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
