import { DeadlinePool, threadCount, workerOutOfMemory } from '../shared/deadline-pool.js';
import { AppError } from '../shared/errors.js';
import type { TaskDeadline } from '../shared/task-deadline.js';
import { inSpan } from '../telemetry/index.js';
import { HARD_LIMIT_GRACE_MS, LIQUID_LIMITS, TEMPLATE_CACHE } from './limits.js';
import type { LiquidReply, TaskBody, WorkerSettings } from './protocol.js';
import { assertTemplateSize, type CacheBytes, type LiquidResult } from './renderer.js';
import { memoryLimitError, timeLimitError } from './template-error.js';

export interface LiquidEngineOptions {
  /** Worker threads (default: the cores Node may use, os.availableParallelism()). */
  threads?: number;
  /** Parsed templates each worker keeps (default 200). */
  cacheSize?: number;
  /** Estimated bytes of parsed templates each worker keeps (default 48 MB). */
  cacheBytes?: number;
  /** Default locale of money/number/percent/date_format (default en-US). */
  locale?: string;
  /** Default IANA zone of date_format and liquidjs's `date` (default UTC, so output is stable). */
  timeZone?: string;
  /** Time limit of one parse + render in ms (default 1,000; spec "Limits"). Changed only in tests. */
  renderMs?: number;
  /**
   * Told of a worker failing outside any task (e.g. its module failed to load); default: a process
   * warning. Without a listener Piscina's 'error' event would end the process.
   */
  onWorkerError?: (err: unknown) => void;
}

/** What the pool has done and holds, for tests and operators. */
export interface LiquidEngineStats {
  /** Parses done by the workers: checks, raw html, and stored templates missing from a worker's cache. */
  parses: number;
  /** Tasks stopped by the hard time limit (each terminated its worker). */
  stopped: number;
  /** The largest cache sizes any worker reported, in estimated bytes. */
  peakCache: CacheBytes;
}

/**
 * A worker's heap cap: room for a 64 MB render (liquidjs's own budget) with its data and copies;
 * past it the worker dies alone (ERR_WORKER_OUT_OF_MEMORY) instead of the server.
 */
const WORKER_HEAP_MB = 384;
/** The warm-up template: the filters an invoice uses (money, number, date_format), a loop, a condition. */
const WARM_UP_TEMPLATE =
  '{% for i in (1..3) %}{% if i > 1 %}{{ n | money: "EUR" }} {{ n | number }} {{ d | date_format: "long" }}{% endif %}{% endfor %}';

/** Extra workers beyond the first stop after this long idle; their caches go with them. */
const IDLE_TIMEOUT_MS = 60_000;

function workerError(err: unknown, deadline: TaskDeadline): unknown {
  if (deadline.expired) return timeLimitError();
  if (workerOutOfMemory(err)) return memoryLimitError();
  return err;
}

/**
 * Quire's Liquid (see renderer.ts for the language rules) run on a pool of worker threads, so no
 * template can block the event loop that serves every team. Each task is parse
 * and render together under one hard wall-clock limit (renderMs + a 100 ms grace, counted from the
 * moment a worker starts it): past it the worker is terminated and the task is
 * template_render_error "took longer than 1 second", whether parsing or rendering was slow.
 *
 * Each worker caches parsed templates by key (bounded by bytes): a stored version, or raw HTML by
 * its content, is parsed at most once per worker. The data is copied to the worker on the main thread (structured
 * clone: ≈ 0.3 ms for the bench invoice, 10 to 20 ms per MB of JSON) and the HTML copied back;
 * bench/liquid-pool.ts measures the whole overhead (≈ 1 ms per invoice). The pool starts on first use.
 */
export class LiquidEngine {
  readonly #settings: WorkerSettings;
  readonly #pool: DeadlinePool<TaskBody, LiquidReply>;
  readonly #stats: LiquidEngineStats = {
    parses: 0,
    stopped: 0,
    peakCache: { templates: 0, patterns: 0, formatters: 0 },
  };

  constructor(options: LiquidEngineOptions = {}) {
    this.#settings = {
      locale: options.locale ?? 'en-US',
      timeZone: options.timeZone ?? 'UTC',
      renderMs: options.renderMs ?? LIQUID_LIMITS.renderMs,
      cacheEntries: options.cacheSize ?? TEMPLATE_CACHE.maxEntries,
      cacheBytes: options.cacheBytes ?? TEMPLATE_CACHE.maxBytes,
    };
    this.#pool = new DeadlinePool({
      compiled: new URL('./worker.js', import.meta.url),
      tsxEntry: new URL('./worker-tsx.mjs', import.meta.url),
      workerData: this.#settings,
      minThreads: 1,
      maxThreads: threadCount(options.threads),
      idleTimeout: IDLE_TIMEOUT_MS,
      heapMb: WORKER_HEAP_MB,
      name: 'Liquid',
      onError: options.onWorkerError,
      closedMessage: 'The Liquid engine is closed.',
    });
  }

  /** Raw `html` sent with `data` (POST /pdf): cached by its content in each worker, like a stored version. */
  async renderSource(source: string, data: Record<string, unknown>): Promise<LiquidResult> {
    assertTemplateSize(source);
    return this.#render({ kind: 'source', source, data });
  }

  /** A stored template version: `cacheKey` names `source` exactly (versions never change). */
  async renderStored(cacheKey: string, source: string, data: Record<string, unknown>): Promise<LiquidResult> {
    assertTemplateSize(source);
    return this.#render({ kind: 'stored', key: cacheKey, source, data });
  }

  /** Parse only (templates are "parsed on save"): template_render_error with details.line/column. */
  async check(source: string): Promise<void> {
    assertTemplateSize(source);
    await this.#run({ kind: 'check', source });
  }

  /**
   * Starts the first worker and runs a small template through it (loading liquidjs, the filters and
   * the default locale's formatters), so the first request does not pay for that; `quire serve` calls
   * it after listening. Counts as one parse in stats().
   */
  async warm(): Promise<void> {
    await this.#render({ kind: 'source', source: WARM_UP_TEMPLATE, data: { n: 1234.5, d: '2026-01-02' } });
  }

  stats(): LiquidEngineStats {
    return { ...this.#stats, peakCache: { ...this.#stats.peakCache } };
  }

  /** Waits for tasks already started, then stops the workers; later calls are refused. */
  close(): Promise<void> {
    return this.#pool.close();
  }

  async #render(body: TaskBody): Promise<LiquidResult> {
    const reply = await this.#run(body);
    return { html: reply.html, warnings: reply.warnings };
  }

  /** One task on a worker, as the `quire.liquid` span of the current trace (its kind only, never its text). */
  #run(body: TaskBody): Promise<Extract<LiquidReply, { ok: true }>> {
    return inSpan('quire.liquid', { 'quire.liquid.task': body.kind }, async () => {
      const reply = await this.#pool.run(
        body,
        this.#settings.renderMs + HARD_LIMIT_GRACE_MS,
        (err, deadline) => {
          if (deadline.expired) this.#stats.stopped += 1;
          return workerError(err, deadline);
        },
      );
      this.#record(reply);
      if (!reply.ok) throw new AppError(reply.code, reply.message, reply.details);
      return reply;
    });
  }

  #record(reply: LiquidReply): void {
    if (reply.parsed) this.#stats.parses += 1;
    const peak = this.#stats.peakCache;
    peak.templates = Math.max(peak.templates, reply.cache.templates);
    peak.patterns = Math.max(peak.patterns, reply.cache.patterns);
    peak.formatters = Math.max(peak.formatters, reply.cache.formatters);
  }
}
