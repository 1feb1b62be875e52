import { AppError } from '../shared/errors.js';
import { FairQueue, NO_TENANT } from '../shared/fair-queue.js';
import type { BrowserSupervisor } from './browser-supervisor.js';
import type { RenderLogger } from './logger.js';
import { createSlot, disposeSlot, type PoolSlot, resetSlot } from './pool-slot.js';
import type { ResourceFetcher } from './resource-fetcher.js';

export interface PoolOptions {
  /** Warm pages, each with its own context (config renderPoolSize). */
  size: number;
  /** Renders allowed to wait for a page before new ones get service_busy (config renderQueueMax). */
  queueMax: number;
  /** Renders after which a page and its context are replaced (config pageRecycleAfter). */
  recycleAfter: number;
  /** Longest wait for a free page before service_busy. */
  maxWaitMs: number;
  /** Warm each new page with small renders before it serves (config renderPageWarmUp). */
  warmUp: boolean;
}

interface Waiter {
  resolve(slot: PoolSlot): void;
  reject(err: unknown): void;
}

/**
 * How long a render waits for the page that was just returned rather than taking another free one.
 * Measured here (invoice, c=1): switching to a page that sat idle costs ~+50 ms (its renderer process
 * and caches are cold), while the reset of a page whose document ran no script takes ~10 ms.
 */
const HOT_PAGE_WAIT_MS = 25;

/** How long after the first page the others are made when no render needed them earlier. */
const MORE_PAGES_AFTER_MS = 3000;

/** Pause before trying again when a replacement page could not be made (browser relaunching). */
const REPLACE_RETRY_MS = 1000;
/** Tries at the first page before the renderer's start fails (see makeSlot). */
const FIRST_PAGE_ATTEMPTS = 3;

function busyError(): AppError {
  return new AppError('service_busy', 'The renderer is busy; retry in a few seconds.');
}

/**
 * N warm pages handed out one render at a time, with a bounded wait queue (config renderQueueMax)
 * served fairly between tenants (src/shared/fair-queue.ts). Returned pages are reset — or replaced — in the
 * background, never on a render's latency path.
 *
 * The default size (config renderPoolSize, 2) stays about one page per core rather than the highest
 * plan's render_concurrency (4): renders are CPU-bound, so more pages than cores only slow every
 * render down. A team at its concurrency may hold every page for a while, but the fair queue gives
 * the next free page to a waiting team with fewer pages in use, so no team waits behind another's queue.
 */
export class PagePool {
  private readonly free: PoolSlot[] = [];
  /** Pages handed out, with the tenant each one serves. */
  private readonly busy = new Map<PoolSlot, string>();
  private readonly waiters = new FairQueue<Waiter>();
  private closed = false;
  private nextId = 1;
  /** Starts making the pages after the first (moreWhenNeeded), until it has been called once. */
  private growNow: (() => void) | null = null;
  /** The quick reset of the page returned last, while it runs (see HOT_PAGE_WAIT_MS). */
  private hotReset: Promise<void> | null = null;
  /** Resets and replacements under way, and who waits for them to finish. */
  private maintenance = 0;
  private settledWaiters: Array<() => void> = [];

  private constructor(
    private readonly supervisor: BrowserSupervisor,
    private readonly fetcher: ResourceFetcher,
    private readonly options: PoolOptions,
    private readonly log: RenderLogger,
  ) {}

  /**
   * Resolves as soon as the first page is warm; the others are made after it and join the pool when
   * warm (start to first PDF: a new page costs Chromium 0.6–0.9 s here, and on two cores
   * making them all at once delayed the first one). A later page that cannot be made is retried like a
   * replacement; the start fails when the first cannot be made.
   */
  static async create(
    supervisor: BrowserSupervisor,
    fetcher: ResourceFetcher,
    options: PoolOptions,
    log: RenderLogger,
  ): Promise<PagePool> {
    const pool = new PagePool(supervisor, fetcher, options, log);
    try {
      const first = await pool.makeSlot(FIRST_PAGE_ATTEMPTS);
      if (!first) throw new Error('the renderer was closed while it started');
      pool.hand(first);
    } catch (err) {
      await pool.close();
      throw err;
    }
    pool.moreWhenNeeded(options.size - 1);
    // After a browser crash every idle page is dead; busy ones are replaced when released.
    supervisor.onRelaunch((browser) => {
      for (const slot of pool.free.filter((s) => s.browser !== browser)) {
        pool.free.splice(pool.free.indexOf(slot), 1);
        pool.replace(slot);
      }
    });
    return pool;
  }

  /**
   * The pages after the first are made a little later, or as soon as a render has to wait for a page:
   * a new page keeps Chromium busy on both cores for most of a second, which would otherwise fall on
   * the first documents the server renders after its start.
   */
  private moreWhenNeeded(count: number): void {
    if (count <= 0) return;
    const timer = setTimeout(() => this.growNow?.(), MORE_PAGES_AFTER_MS);
    timer.unref();
    this.growNow = () => {
      this.growNow = null;
      clearTimeout(timer);
      this.track(this.addPages(count));
    };
  }

  /** The pages after the first, one after another, each handed out when warm (retried like replacements). */
  private async addPages(count: number): Promise<void> {
    for (let i = 0; i < count && !this.closed; i++) await this.createReplacement();
  }

  /**
   * A page for one render of `tenant`; throws service_busy when the wait queue is full or the wait
   * too long.
   */
  async acquire(signal?: AbortSignal, tenant: string = NO_TENANT): Promise<PoolSlot> {
    if (this.closed) throw busyError();
    if (this.hotReset && this.free.length > 0) {
      await Promise.race([this.hotReset, new Promise((resolve) => setTimeout(resolve, HOT_PAGE_WAIT_MS))]);
    }
    return this.takeFreeOrWait(signal, tenant);
  }

  private takeFreeOrWait(signal: AbortSignal | undefined, tenant: string): Promise<PoolSlot> {
    const slot = this.takeFree(tenant);
    if (slot) return Promise.resolve(slot);
    this.growNow?.();
    if (this.waiters.size >= this.options.queueMax) return Promise.reject(busyError());
    return new Promise<PoolSlot>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiters.remove(tenant, waiter);
      };
      const waiter: Waiter = {
        resolve: (s) => {
          done();
          resolve(s);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      };
      const onAbort = () => waiter.reject(signal?.reason);
      const timer = setTimeout(() => waiter.reject(busyError()), this.options.maxWaitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(tenant, waiter);
    });
  }

  /**
   * Gives a page back. `discard` (timeout, crash, a document that reached other origins) and the
   * recycle count replace page and context; otherwise the page is reset. Both run in the background.
   */
  release(slot: PoolSlot, discard: boolean): void {
    const tenant = this.busy.get(slot);
    if (tenant !== undefined) this.waiters.finished(tenant);
    this.busy.delete(slot);
    slot.renders += 1;
    if (discard || slot.broken || slot.renders >= this.options.recycleAfter || this.closed) {
      this.replace(slot);
      return;
    }
    const quick = !slot.scriptRan;
    const reset = resetSlot(slot).then(
      () => this.hand(slot),
      (err) => {
        this.log.warn({ err, slot: slot.id }, 'page reset failed; replacing it');
        this.replace(slot);
      },
    );
    this.track(reset);
    if (quick) {
      this.hotReset = reset;
      void reset.finally(() => {
        if (this.hotReset === reset) this.hotReset = null;
      });
    }
  }

  /**
   * Resolves once every page of the pool exists (the later ones are made now if they were not yet) and
   * none is being reset or replaced (tests, graceful shutdown).
   */
  settled(): Promise<void> {
    this.growNow?.();
    if (this.maintenance === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private track(work: Promise<void>): void {
    this.maintenance += 1;
    void work.finally(() => {
      this.maintenance -= 1;
      if (this.maintenance === 0) for (const resolve of this.settledWaiters.splice(0)) resolve();
    });
  }

  stats(): { slots: number; busy: number; queued: number } {
    return { slots: this.free.length + this.busy.size, busy: this.busy.size, queued: this.waiters.size };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.growNow = null;
    for (const waiter of this.waiters.drain()) waiter.reject(busyError());
    await Promise.all(this.free.splice(0).map(disposeSlot));
  }

  private takeFree(tenant: string): PoolSlot | null {
    for (let slot = this.free.pop(); slot; slot = this.free.pop()) {
      if (!slot.broken && !slot.page.isClosed() && slot.browser.isConnected()) {
        this.lend(slot, tenant);
        return slot;
      }
      this.replace(slot);
    }
    return null;
  }

  /** A ready page goes to the next waiter (src/shared/fair-queue.ts), else back to the free list. */
  private hand(slot: PoolSlot): void {
    if (this.closed) return void disposeSlot(slot);
    const next = this.waiters.next();
    if (!next) return void this.free.push(slot);
    this.lend(slot, next.tenant);
    next.item.resolve(slot);
  }

  private lend(slot: PoolSlot, tenant: string): void {
    this.busy.set(slot, tenant);
    this.waiters.started(tenant);
  }

  private replace(old: PoolSlot): void {
    this.track(disposeSlot(old));
    if (this.closed) return;
    this.track(this.createReplacement());
  }

  /**
   * A new page, tried up to `attempts` times REPLACE_RETRY_MS apart; null once the pool is closed. The first
   * page gets FIRST_PAGE_ATTEMPTS: on a machine busy enough that blanking a new page takes over its 5 s limit,
   * the server should start a little later rather than not at all, while a Chromium that cannot make pages
   * still fails the start. Replacements are tried until they succeed (a browser may be relaunching).
   */
  private async makeSlot(attempts: number): Promise<PoolSlot | null> {
    for (let attempt = 1; !this.closed; attempt++) {
      try {
        return await createSlot(
          await this.supervisor.current(),
          this.nextId++,
          this.fetcher,
          this.options.warmUp,
        );
      } catch (err) {
        if (this.closed) return null;
        if (attempt >= attempts) throw err;
        this.log.warn({ err, attempt }, 'could not create a pool page; retrying');
        await new Promise((resolve) => setTimeout(resolve, REPLACE_RETRY_MS));
      }
    }
    return null;
  }

  private async createReplacement(): Promise<void> {
    const slot = await this.makeSlot(Number.POSITIVE_INFINITY);
    if (slot) this.hand(slot);
  }
}
