import { createHash } from 'node:crypto';
import { Liquid } from 'liquidjs';
import { AppError } from '../shared/errors.js';
import type { Warning } from '../shared/warnings.js';
import { CompiledTemplate } from './compiled-template.js';
import { patternCacheBytes } from './filters/date-pattern.js';
import { formatterCacheBytes } from './filters/formatters.js';
import { registerQuireFilters } from './filters/index.js';
import { LIQUID_LIMITS, TEMPLATE_CACHE } from './limits.js';
import { LruCache } from './lru-cache.js';

/** The cache key of a raw `html` source. */
function sourceKey(source: string): string {
  return `html:${createHash('sha256').update(source).digest('base64')}`;
}

import {
  attachCollector,
  detachCollector,
  instrument,
  MissingVariableCollector,
} from './missing-variables.js';
import { refuseFileTags } from './no-files.js';
import { parseFailure, renderFailure } from './template-error.js';

export interface LiquidResult {
  html: string;
  warnings: Warning[];
}

export interface LiquidRendererOptions {
  /** Parsed templates kept by getOrParse (default 200). */
  cacheSize?: number;
  /** Estimated bytes of the parsed templates getOrParse keeps (default TEMPLATE_CACHE.maxBytes). */
  cacheBytes?: number;
  /** Default locale of money/number/percent/date_format (default en-US). */
  locale?: string;
  /** Default IANA zone of date_format and liquidjs's `date` (default UTC, so output is stable). */
  timeZone?: string;
  /** Render time limit in ms (default 1,000; spec "Limits"). Lower only in tests. */
  renderMs?: number;
}

function tooLarge(source: string): boolean {
  // Fast path: UTF-8 never takes more than 3 bytes per UTF-16 unit.
  return (
    source.length * 3 > LIQUID_LIMITS.maxTemplateBytes &&
    Buffer.byteLength(source) > LIQUID_LIMITS.maxTemplateBytes
  );
}

/** Spec "Errors": a Liquid source over 500 KB is template_render_error (checked before any parse). */
export function assertTemplateSize(source: string): void {
  if (tooLarge(source)) {
    throw new AppError('template_render_error', 'The Liquid template is larger than 500 KB.');
  }
}

/** Estimated bytes a cached template holds in this thread, for the cache's byte budget. */
function templateBytes(key: string, template: CompiledTemplate): number {
  return 2 * (key.length + template.source.length) + template.nodeCount * TEMPLATE_CACHE.bytesPerNode;
}

/** What a thread's caches hold, in estimated bytes (reported by the worker pool's stats). */
export interface CacheBytes {
  templates: number;
  patterns: number;
  formatters: number;
}

/**
 * Quire's Liquid in the calling thread: liquidjs 10.30.1 with strict filters, own-property reads
 * only, no file access, the spec's limits, Quire's filters and missing-variable warnings.
 *
 * Rendering is synchronous (about 2.5× faster than liquidjs's async path) and its limits are
 * cooperative: liquidjs checks the clock between nodes only while rendering, never while parsing.
 * So the server never runs it on its main thread: each worker of the pool (engine.ts, worker.ts)
 * owns one LiquidRenderer and is terminated when a task passes the hard time limit.
 */
export class LiquidRenderer {
  readonly #liquid: Liquid;
  readonly #cache: LruCache<string, CompiledTemplate>;
  /** Parses done by getOrParse (cache misses), for tests and stats. */
  parses = 0;

  constructor(options: LiquidRendererOptions = {}) {
    const timeZone = options.timeZone ?? 'UTC';
    this.#liquid = new Liquid({
      strictFilters: true,
      ownPropertyOnly: true,
      lenientIf: true,
      strictVariables: false,
      parseLimit: LIQUID_LIMITS.maxTemplateBytes,
      renderLimit: options.renderMs ?? LIQUID_LIMITS.renderMs,
      memoryLimit: LIQUID_LIMITS.memoryBytes,
      // An in-memory file system with no files: nothing can reach the disk even if a tag tried.
      templates: {},
      cache: false,
      // A zone name makes liquidjs's `date` build an Intl formatter per call; UTC needs none.
      timezoneOffset: timeZone === 'UTC' ? 0 : timeZone,
    });
    refuseFileTags(this.#liquid);
    registerQuireFilters(this.#liquid, { locale: options.locale ?? 'en-US', timeZone });
    this.#cache = new LruCache({
      maxEntries: options.cacheSize ?? TEMPLATE_CACHE.maxEntries,
      maxBytes: options.cacheBytes ?? TEMPLATE_CACHE.maxBytes,
      sizeOf: templateBytes,
    });
  }

  /** Spec "Errors": syntax errors, unknown filters and sources over 500 KB are template_render_error. */
  parse(source: string): CompiledTemplate {
    assertTemplateSize(source);
    let nodes: ReturnType<Liquid['parse']>;
    try {
      nodes = this.#liquid.parse(source);
    } catch (err) {
      throw parseFailure(err);
    }
    const nodeCount = instrument(nodes);
    return new CompiledTemplate(source, nodes, nodeCount);
  }

  /** Parses once per key (e.g. `templateId@version`); a stored version's source never changes. */
  getOrParse(cacheKey: string, source: string): CompiledTemplate {
    const hit = this.#cache.get(cacheKey);
    if (hit !== undefined && hit.source === source) return hit;
    const compiled = this.parse(source);
    this.parses += 1;
    this.#cache.set(cacheKey, compiled);
    return compiled;
  }

  /** Estimated bytes held by this thread's caches (the template cache is per renderer, the rest per thread). */
  cacheBytes(): CacheBytes {
    return { templates: this.#cache.bytes, patterns: patternCacheBytes(), formatters: formatterCacheBytes() };
  }

  /** HTML identical to a plain liquidjs render, plus missing_variable warnings (spec "Warning"). */
  render(template: CompiledTemplate, data: Record<string, unknown>): LiquidResult {
    // A fresh scope object per render keys this render's collector (see missing-variables.ts).
    const env: Record<string, unknown> = { ...data };
    const collector = new MissingVariableCollector(env, () => template.words(), template.source.length);
    attachCollector(env, collector);
    // Missing variables surface as exceptions whose stack traces are never used but cost most of
    // a miss; the render is synchronous, so the process-wide setting is restored before anything else runs.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      const html = this.#liquid.renderSync(template.nodes, env, { strictVariables: true }) as string;
      return { html, warnings: collector.warnings() };
    } catch (err) {
      throw renderFailure(err);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
      detachCollector(env);
    }
  }

  /**
   * Raw `html` sent with `data`. Clients usually send the same HTML with new data every time, and the
   * parse was about half of the invoice's Liquid time, so it is cached by a digest of the
   * source like a stored version (getOrParse compares the whole source, so a digest collision cannot
   * mix two templates up; the byte budget bounds what any team's sources occupy).
   */
  renderSource(source: string, data: Record<string, unknown>): LiquidResult {
    return this.render(this.getOrParse(sourceKey(source), source), data);
  }
}
