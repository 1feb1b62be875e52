import type { TemplateSettings } from './settings.js';

/** The content one version holds (spec: Template — `version`, `html`, `css`, `sample_data`, `settings`). */
export interface VersionContent {
  html: string;
  css: string | null;
  sampleData: Record<string, unknown> | null;
  settings: TemplateSettings;
}

/** The content fields a PUT may send; `undefined` = omitted, `css: null` = remove the stylesheet. */
export interface ContentPatch {
  html?: string;
  css?: string | null;
  sample_data?: Record<string, unknown>;
  settings?: TemplateSettings;
}

/** Spec: the latest 50 versions are kept, plus the pinned one. */
export const VERSIONS_KEPT = 50;

/**
 * Spec "Template versions": a PUT changing html, css, sample_data or settings makes the next version with
 * omitted fields copied from the current one and `settings` replaced as a whole. Returns the new content,
 * or null when the PUT changes no content (a name-only or no-op PUT makes no version).
 */
export function nextContent(current: VersionContent, patch: ContentPatch): VersionContent | null {
  const next: VersionContent = {
    html: patch.html ?? current.html,
    css: patch.css === undefined ? current.css : patch.css,
    sampleData: patch.sample_data ?? current.sampleData,
    settings: patch.settings ?? current.settings,
  };
  return sameContent(current, next) ? null : next;
}

export function sameContent(a: VersionContent, b: VersionContent): boolean {
  return (
    a.html === b.html &&
    a.css === b.css &&
    canonicalJson(a.sampleData) === canonicalJson(b.sampleData) &&
    canonicalJson(a.settings) === canonicalJson(b.settings)
  );
}

/**
 * JSON with object keys sorted, so `{a,b}` and `{b,a}` compare equal: re-sending the same sample data in
 * another key order is not a change.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}

/**
 * Versions to delete so that only the latest `kept` (by number, counting from `current`) and the pinned one
 * remain. `existing` is every version number the template still has.
 */
export function versionsToPrune(
  existing: readonly number[],
  current: number,
  pinned: number | null,
  kept: number = VERSIONS_KEPT,
): number[] {
  const oldestKept = current - kept + 1;
  return existing.filter((v) => v < oldestKept && v !== pinned);
}

/** The version a render or read uses: the one asked for, else the pinned one, else the current one. */
export function versionToUse(
  template: { current_version: number; pinned_version: number | null },
  requested: number | undefined,
): number {
  return requested ?? template.pinned_version ?? template.current_version;
}
