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

/** Parsed template versions kept in memory (bounded by count; a template is at most 500 KB of source). */
export const DEFAULT_CACHE_SIZE = 200;

/** Spec "Warning": at most 20 warnings per response; the collector never keeps more. */
export const MAX_MISSING_VARIABLES = 20;
