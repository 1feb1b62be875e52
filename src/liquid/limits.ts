/**
 * Liquid limits (spec: "Limits" — template 500 KB, render 1 second and 64 MB; "Errors" — template_render_error).
 */
export const LIQUID_LIMITS = {
  /** Template source, in bytes of UTF-8 (spec: html at most 500 KB). */
  maxTemplateBytes: 500 * 1024,
  /** Wall time of one render, in milliseconds (spec: render over 1 second). */
  renderMs: 1000,
  /** liquidjs allocation budget and the cap on the HTML a render may produce (spec: 64 MB). */
  memoryBytes: 64 * 1024 * 1024,
} as const;

/**
 * Parsed template versions kept by each worker thread, bounded by count and by estimated bytes
 * (a 500 KB template of 100k `{{a}}` tags holds ≈ 117 MB once parsed).
 * Measured with liquidjs 10.30.1: 1.1 to 2.2 KB per parsed node (more with filters) plus the
 * source; the estimate takes the upper end, so a template bigger than the budget is never kept.
 */
export const TEMPLATE_CACHE = {
  maxEntries: 200,
  maxBytes: 48 * 1024 * 1024,
  bytesPerNode: 2048,
} as const;

/**
 * `date_format` patterns: longer ones are refused (real patterns are under 40 characters; a 1 MB
 * pattern compiled to ≈ 43 MB), and compiled ones are cached within a byte budget per thread.
 */
export const DATE_PATTERN_LIMITS = {
  maxChars: 100,
  cacheEntries: 256,
  cacheBytes: 1024 * 1024,
} as const;

/** Intl formatters shared across renders (per thread): each option set costs a few KB. */
export const FORMATTER_CACHE = {
  maxEntries: 256,
  maxBytes: 4 * 1024 * 1024,
  /** Estimated bytes of one Intl formatter, plus its key. */
  bytesPerFormatter: 8 * 1024,
} as const;

/**
 * The worker pool's hard limit: a task (parse + render) still running this long after the
 * worker started it is stopped by terminating the worker. The grace lets liquidjs's own
 * cooperative render limit (renderMs) answer first when it can, which keeps the worker.
 */
export const HARD_LIMIT_GRACE_MS = 100;

/** Spec "Warning": at most 20 warnings per response; the collector never keeps more. */
export const MAX_MISSING_VARIABLES = 20;
