import type { Config } from '../config/config.js';
import { isAppError } from '../shared/errors.js';
import { inSpan, spanEvent } from '../telemetry/index.js';
import { BrowserSupervisor } from './browser-supervisor.js';
import { fastMode } from './fast-mode.js';
import { type RenderLogger, silentLogger } from './logger.js';
import { PagePool } from './page-pool.js';
import { applyPdfMetadata } from './pdf-metadata.js';
import { PAGE_CRASHED, type PoolSlot } from './pool-slot.js';
import { countPdfPages, MAX_PAGES, tooLarge } from './print-to-pdf.js';
import {
  crashed,
  type DeadlineOutcome,
  type PageWork,
  renderInPage,
  renderWithDeadline,
} from './render-page.js';
import { ResourceFetcher } from './resource-fetcher.js';
import type { ModeStrategy, RenderJob, RenderMode, RenderResult } from './types.js';

/** Spec "Limits": HTML after Liquid, with CSS (same MB as the request body limit). */

/**
 * A render waits at least this long for a free page, even under a shorter render time limit: after a
 * timeout or a document that reached other origins the page is replaced, and making a new one can take
 * seconds on a loaded machine (the wait is not rendering time).
 */
const MIN_PAGE_WAIT_MS = 15_000;
export const MAX_HTML_BYTES = 5 * 1024 * 1024;

/**
 * How long a render whose page closed under it waits to learn whether its whole browser went away
 * (playwright reports the pages' close and the browser's disconnect separately, in either order).
 */
const BROWSER_LOSS_WAIT_MS = 1000;

/** The render's browser died under it (not its own tab): not the document's fault, so it is retried. */
class BrowserLost extends Error {}

export interface RendererOptions {
  /** Strategies by mode for renders that name none; `fast` is built in. */
  strategies?: Partial<Record<RenderMode, ModeStrategy>>;
  /** A Chromium already launching (render/early-start.ts) rather than one launched here. */
  supervisor?: Promise<BrowserSupervisor>;
}

export interface RendererStats {
  /** Open pages and contexts as the browser reports them (leak checks). */
  pages: number;
  contexts: number;
  busy: number;
  queued: number;
  browserPid?: number;
  /** Chromium relaunches since start (metrics). */
  relaunches: number;
  /** e.g. "131.0.6778.85"; null while no browser is connected. */
  chromiumVersion: string | null;
}

/**
 * The settings a renderer reads, and nothing else of the configuration: its type is what `start` takes, so a
 * setting read here must be listed (the tests key the renderer their servers share by these).
 */
export const RENDERER_SETTINGS = [
  'chromiumPath',
  'chromiumWsEndpoint',
  'renderPoolSize',
  'renderQueueMax',
  'pageRecycleAfter',
  'renderTimeoutMs',
  'renderPageWarmUp',
  'allowPrivateResources',
  'urlAllowHosts',
  'resourceMaxBytes',
  'resourceTimeoutMs',
  'resourceMaxCount',
  'resourceMaxTotalBytes',
] as const satisfies ReadonlyArray<keyof Config>;

export type RendererConfig = Pick<Config, (typeof RENDERER_SETTINGS)[number]>;

/** The render engine: supervised Chromium, page pool, resource guard, limits, post-processing. */
export class Renderer {
  private constructor(
    private readonly config: RendererConfig,
    private readonly log: RenderLogger,
    readonly supervisor: BrowserSupervisor,
    private readonly pool: PagePool,
    private readonly fetcher: ResourceFetcher,
    private readonly strategies: Partial<Record<RenderMode, ModeStrategy>>,
  ) {}

  static async start(
    config: RendererConfig,
    log: RenderLogger = silentLogger,
    options: RendererOptions = {},
  ) {
    const supervisor = await (options.supervisor ?? BrowserSupervisor.start(config, log));
    const fetcher = new ResourceFetcher({
      allowPrivate: config.allowPrivateResources,
      allowHosts: config.urlAllowHosts,
      maxBytes: config.resourceMaxBytes,
      timeoutMs: config.resourceTimeoutMs,
      perDocument: { maxCount: config.resourceMaxCount, maxBytes: config.resourceMaxTotalBytes },
    });
    try {
      const pool = await PagePool.create(
        supervisor,
        fetcher,
        {
          size: config.renderPoolSize,
          queueMax: config.renderQueueMax,
          recycleAfter: config.pageRecycleAfter,
          maxWaitMs: Math.max(config.renderTimeoutMs, MIN_PAGE_WAIT_MS),
          warmUp: config.renderPageWarmUp,
        },
        log,
      );
      return new Renderer(config, log, supervisor, pool, fetcher, { fast: fastMode, ...options.strategies });
    } catch (err) {
      await supervisor.close();
      await fetcher.close();
      throw err;
    }
  }

  /**
   * Renders one job; `strategy` defaults to the one registered for `job.page.mode`, else fast. When
   * Chromium itself dies during the render the render runs once more on the
   * relaunched browser; only a document that breaks its page again fails with render_failed.
   */
  async render(job: RenderJob, strategy?: ModeStrategy): Promise<RenderResult> {
    const mode = strategy ?? this.strategies[job.page.mode] ?? fastMode;
    const htmlBytes = Buffer.byteLength(job.html) + Buffer.byteLength(job.css ?? '');
    if (htmlBytes > MAX_HTML_BYTES) throw tooLarge('The HTML with its CSS is over 5 MB.');
    try {
      return await this.renderOnce(job, mode);
    } catch (err) {
      if (!(err instanceof BrowserLost)) throw err;
      this.log.warn(
        { tenant: job.tenant },
        'chromium went away during a render; retrying it on the relaunched one',
      );
      spanEvent('quire.chromium.retry', { reason: 'browser_lost' });
    }
    try {
      return await this.renderOnce(job, mode);
    } catch (err) {
      throw err instanceof BrowserLost ? crashed() : err;
    }
  }

  private async renderOnce(job: RenderJob, mode: ModeStrategy): Promise<RenderResult> {
    job.signal?.throwIfAborted();
    const slot = await inSpan('quire.chromium.page', {}, () => this.pool.acquire(job.signal, job.tenant));
    slot.guard.begin(job.localResources);
    const deadline = performance.now() + this.config.renderTimeoutMs;
    const outcome = await renderWithDeadline(slot, this.config.renderTimeoutMs, job.signal, () =>
      renderInPage(slot, job, mode, deadline),
    );
    const report = slot.guard.end();
    // The page goes back now: everything below works on the PDF bytes only.
    this.pool.release(slot, outcome.discard || report.usedOtherOrigins);
    if (!outcome.value) {
      if (await browserLost(slot, outcome, job.signal)) throw new BrowserLost();
      throw outcome.error;
    }
    const post = await postProcess(outcome.value, job);
    return {
      pdf: post.pdf,
      pages: post.pages,
      mode: mode.mode,
      blockedResources: report.blocked.list(),
      blockedCount: report.blocked.count,
      warnings: outcome.value.warnings,
      ...(outcome.value.title ? { title: outcome.value.title } : {}),
      timings: { ...outcome.value.timings, postMs: post.ms },
    };
  }

  /** Ready for renders: Chromium is up and not being relaunched (GET /readyz). */
  isReady(): boolean {
    return this.supervisor.isUp();
  }

  /** Shutdown has begun: renders in flight finish, but a lost Chromium is not relaunched any more. */
  beginShutdown(): void {
    this.supervisor.beginShutdown();
  }

  stats(): RendererStats {
    const contexts = this.supervisor.connected()?.contexts() ?? [];
    const { busy, queued } = this.pool.stats();
    return {
      pages: contexts.reduce((n, c) => n + c.pages().length, 0),
      contexts: contexts.length,
      busy,
      queued,
      browserPid: this.supervisor.pid,
      relaunches: this.supervisor.relaunches,
      chromiumVersion: this.supervisor.connected()?.version() ?? null,
    };
  }

  /** Resolves once every returned page is reset or replaced and ready again. */
  settled(): Promise<void> {
    return this.pool.settled();
  }

  async close(): Promise<void> {
    await this.pool.close();
    await this.supervisor.close();
    await this.fetcher.close();
  }
}

async function countPagesWithPdfLib(pdf: Buffer): Promise<number> {
  const { PDFDocument } = await import('@cantoo/pdf-lib');
  return (await PDFDocument.load(pdf)).getPageCount();
}

/** Page limit (counted in the page tree, pdf-lib only as a fallback), metadata. */
async function postProcess(
  work: PageWork,
  job: RenderJob,
): Promise<{ pdf: Buffer; pages: number; ms: number }> {
  const t0 = performance.now();
  const pages = countPdfPages(work.pdf) || (await countPagesWithPdfLib(work.pdf));
  if (pages > MAX_PAGES) throw tooLarge(`The PDF has more than ${MAX_PAGES} pages.`);
  // The test watermark is already in the PDF: Chromium printed it (render-page.ts).
  const pdf = await applyPdfMetadata(work.pdf, {
    fallbackTitle: work.title || job.title || 'document',
    html: job.html,
  });
  return { pdf, pages, ms: performance.now() - t0 };
}

/**
 * A failure that ended with the page gone (not a crash of its own renderer, not a timeout or a
 * limit) is the browser's when the page's browser disconnected — right away or within a moment.
 */
async function browserLost(
  slot: PoolSlot,
  outcome: DeadlineOutcome<PageWork>,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (!outcome.discard || signal?.aborted || slot.broken === PAGE_CRASHED) return false;
  if (isAppError(outcome.error) && outcome.error.code === 'render_timeout') return false;
  if (!slot.browser.isConnected()) return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      slot.browser.off('disconnected', onLost);
      resolve(!slot.browser.isConnected());
    }, BROWSER_LOSS_WAIT_MS);
    const onLost = () => {
      clearTimeout(timer);
      resolve(true);
    };
    slot.browser.once('disconnected', onLost);
  });
}
