import type { RenderJob } from '../types.js';

/**
 * CSS Generated Content for Paged Media features native Chromium 156 lacks (measured, see README.md):
 * running elements, named strings, and cross references. A document using any of them is laid out
 * by the Paged.js polyfill; every other document stays on Chromium's own paged media (~1× fast).
 */
const POLYFILL_FEATURES: readonly { name: string; pattern: RegExp }[] = [
  { name: 'running elements', pattern: /position\s*:\s*running\s*\(/i },
  { name: 'element()', pattern: /content\s*:[^;{}]*\belement\s*\(/i },
  { name: 'string-set', pattern: /string-set\s*:/i },
  { name: 'string()', pattern: /content\s*:[^;{}]*\bstring\s*\(/i },
  { name: 'target-counter', pattern: /\btarget-(?:counters?|text)\s*\(/i },
];

/** Names of the polyfill-only features the job's HTML or CSS uses (empty: native path). */
export function polyfillFeatures(job: Pick<RenderJob, 'html' | 'css'>): string[] {
  const text = `${job.css ?? ''}\n${job.html}`;
  return POLYFILL_FEATURES.filter((f) => f.pattern.test(text)).map((f) => f.name);
}

export function needsPolyfill(job: Pick<RenderJob, 'html' | 'css'>): boolean {
  return polyfillFeatures(job).length > 0;
}
