import { Liquid } from 'liquidjs';
import { AppError } from '../shared/errors.js';
import type { Warning } from '../shared/warnings.js';
import { CompiledTemplate } from './compiled-template.js';
import { registerQuireFilters } from './filters/index.js';
import { DEFAULT_CACHE_SIZE, LIQUID_LIMITS } from './limits.js';
import { LruCache } from './lru-cache.js';
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

export interface LiquidEngineOptions {
  /** Parsed templates kept by getOrParse (default 200). */
  cacheSize?: number;
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

/**
 * Quire's Liquid: liquidjs 10.30.1 with strict filters, own-property reads only, no file access,
 * the spec's limits, Quire's filters and missing-variable warnings.
 *
 * Rendering is synchronous (about 2.5× faster than liquidjs's async path). The limits are
 * cooperative: liquidjs checks the clock between nodes, so one render blocks the event loop for at
 * most about a second. Worker seam: `render(template, data)` depends only on `template.source` and
 * JSON data, so a worker-thread variant can keep its own engine and cache keyed by the same
 * cacheKey, receive `{ key, source, data }`, and be `terminate()`d on a hard timeout; the result
 * and AppError shapes stay the same (the port would become async).
 */
export class LiquidEngine {
  readonly #liquid: Liquid;
  readonly #cache: LruCache<string, CompiledTemplate>;

  constructor(options: LiquidEngineOptions = {}) {
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
    this.#cache = new LruCache(options.cacheSize ?? DEFAULT_CACHE_SIZE);
  }

  /** Spec "Errors": syntax errors, unknown filters and sources over 500 KB are template_render_error. */
  parse(source: string): CompiledTemplate {
    if (tooLarge(source)) {
      throw new AppError('template_render_error', 'The Liquid template is larger than 500 KB.');
    }
    let nodes: ReturnType<Liquid['parse']>;
    try {
      nodes = this.#liquid.parse(source);
    } catch (err) {
      throw parseFailure(err);
    }
    instrument(nodes);
    return new CompiledTemplate(source, nodes);
  }

  /** Parses once per key (e.g. `templateId@version`); a stored version's source never changes. */
  getOrParse(cacheKey: string, source: string): CompiledTemplate {
    const hit = this.#cache.get(cacheKey);
    if (hit !== undefined && hit.source === source) return hit;
    const compiled = this.parse(source);
    this.#cache.set(cacheKey, compiled);
    return compiled;
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

  /** LiquidPort for raw `html` sent with `data`: parsed per request, not cached. */
  renderSource(source: string, data: Record<string, unknown>): LiquidResult {
    return this.render(this.parse(source), data);
  }
}
